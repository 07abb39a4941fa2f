/** The controller of a direct stream (Bun's): writes go to the response as they are made. */
export interface DirectController {
  write(chunk: Uint8Array | string): number | Promise<number>;
  flush(): number | Promise<number>;
  close(): void;
}

/**
 * The source of a direct stream: its one pull writes the whole body, or starts what writes it later (the stream
 * stays open until closed); `cancel` runs when the client goes away. Bun calls both as the source's methods, so a
 * source is its own underlying source: no wrapper object or closures for each stream.
 */
export interface DirectSource {
  readonly type: "direct";
  pull(controller: DirectController): void | Promise<void>;
  cancel(): void;
}

export function directStream(source: DirectSource): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(source as unknown as UnderlyingDefaultSource<Uint8Array>);
}

export function closeQuietly(controller: DirectController): void {
  try {
    controller.close();
  } catch {}
}
