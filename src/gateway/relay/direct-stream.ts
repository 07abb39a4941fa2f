/** The controller of a direct stream (Bun's): writes go to the response as they are made. */
export interface DirectController {
  write(chunk: Uint8Array | string): number | Promise<number>;
  flush(): number | Promise<number>;
  close(): void;
}

/**
 * A direct stream whose one pull writes the whole body, or starts what writes it later (the stream stays open
 * until closed); `cancel` runs when the client goes away.
 */
export function directStream(source: {
  pull(controller: DirectController): void | Promise<void>;
  cancel(): void;
}): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    type: "direct",
    pull: (controller: DirectController) => source.pull(controller),
    cancel: () => source.cancel(),
  } as unknown as UnderlyingDefaultSource<Uint8Array>);
}

export function closeQuietly(controller: DirectController): void {
  try {
    controller.close();
  } catch {}
}
