import { ServiceError } from "../../service/errors";

/** The request content codings a body may arrive in, by their Content-Encoding names. */
const FORMATS: Record<string, CompressionFormat> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli" as CompressionFormat,
  zstd: "zstd" as CompressionFormat,
};

/** The codings named by a Content-Encoding header, in the order they were applied ("identity" left out). */
export function contentCodings(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== "identity");
}

/**
 * The body with its content codings undone, as a stream inflated only as fast as it is read (so a reader
 * that stops at a size limit never inflates the rest). An unknown coding is refused with 415.
 */
export function decodedBody(body: ReadableStream<Uint8Array>, codings: string[]): ReadableStream<Uint8Array> {
  let decoded = body as ReadableStream<Uint8Array<ArrayBuffer>>;
  for (const coding of [...codings].reverse()) {
    const format = FORMATS[coding];
    if (!format)
      throw new ServiceError(`unsupported Content-Encoding "${coding}" (gzip, deflate, br and zstd are)`, 415);
    decoded = decoded.pipeThrough(new DecompressionStream(format)) as ReadableStream<Uint8Array<ArrayBuffer>>;
  }
  return decoded;
}
