import type { ServiceContext } from "../context";
import { RefusedAddressError } from "../egress/gate";
import { gatedFetch } from "../egress/gated-fetch";
import { upstreamGate } from "../egress/site-gate";
import { invalidRequest } from "./errors";

/** The largest image the relay downloads, and how long it waits for one (headers and body). */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 3;

export interface DownloadedImage {
  mediaType: string;
  /** Base64. */
  data: string;
}

const failed = (url: string, why: string) =>
  invalidRequest(`the image at ${new URL(url).host} could not be downloaded: ${why}`, "image_download_failed");

/**
 * The worker (WorkerUrl, keyed by WorkerValidKey) fetches for us: POST {url, key, method} and it answers with the
 * image. Without one: a direct GET under the upstream address policy (private and link-local addresses refused
 * unless allowed), its redirects followed through the same policy, MAX_REDIRECTS at the most.
 */
async function fetchImage(ctx: ServiceContext, url: string, signal: AbortSignal): Promise<Response> {
  const worker = ctx.options.raw("WorkerUrl");
  if (worker) {
    const body = JSON.stringify({ url, key: ctx.options.raw("WorkerValidKey"), method: "GET" });
    return fetch(worker, { method: "POST", headers: { "content-type": "application/json" }, body, signal });
  }
  const gate = upstreamGate(ctx.options);
  let at = url;
  for (let hop = 0; ; hop++) {
    const reply = await gatedFetch(at, { method: "GET", redirect: "manual", signal }, gate);
    const location = reply.headers.get("location");
    if (reply.status < 300 || reply.status >= 400 || !location) return reply;
    if (hop >= MAX_REDIRECTS) throw failed(url, "too many redirects");
    at = new URL(location, at).toString();
    if (!/^https?:/i.test(at)) throw failed(url, "it redirects to a non-http address");
  }
}

/** The body, refused as soon as it passes IMAGE_MAX_BYTES (a declared length beyond it is refused at once). */
async function boundedBytes(url: string, reply: Response): Promise<Uint8Array> {
  const declared = Number(reply.headers.get("content-length"));
  const tooLarge = () => failed(url, `it is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB`);
  if (declared > IMAGE_MAX_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = reply.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > IMAGE_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** An image URL of a request, downloaded for a family that takes images as bytes (bounded in size and time). */
export async function downloadImage(ctx: ServiceContext, url: string): Promise<DownloadedImage> {
  const signal = AbortSignal.timeout(IMAGE_TIMEOUT_MS);
  let reply: Response;
  try {
    reply = await fetchImage(ctx, url, signal);
  } catch (error) {
    if (error instanceof RefusedAddressError) throw failed(url, error.message);
    if (error instanceof Error && error.name === "RelayError") throw error;
    throw failed(url, signal.aborted ? "it did not arrive in time" : "it could not be reached");
  }
  if (reply.status !== 200) throw failed(url, `HTTP ${reply.status}`);
  const mediaType = (reply.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!mediaType.startsWith("image/")) throw failed(url, `it is not an image (${mediaType || "no content type"})`);
  let bytes: Uint8Array;
  try {
    bytes = await boundedBytes(url, reply);
  } catch (error) {
    if (error instanceof Error && error.name === "RelayError") throw error;
    throw failed(url, signal.aborted ? "it did not arrive in time" : "the download broke off");
  }
  return { mediaType, data: Buffer.from(bytes).toString("base64") };
}

/**
 * Every http(s) image_url of an OpenAI chat body's messages replaced, in place, by a data: URL of the image
 * (each address downloaded once). Answers whether there was any.
 */
export async function inlineImageUrls(ctx: ServiceContext, body: Record<string, any>): Promise<boolean> {
  const parts: { image_url: any }[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!Array.isArray(message?.content)) continue;
    for (const part of message.content) {
      const url = part?.type === "image_url" ? (part.image_url?.url ?? part.image_url) : undefined;
      if (typeof url === "string" && /^https?:\/\//i.test(url)) parts.push(part);
    }
  }
  if (parts.length === 0) return false;
  const downloads = new Map<string, Promise<DownloadedImage>>();
  for (const part of parts) {
    const url: string = part.image_url?.url ?? part.image_url;
    if (!downloads.has(url)) downloads.set(url, downloadImage(ctx, url));
  }
  for (const part of parts) {
    const url: string = part.image_url?.url ?? part.image_url;
    const { mediaType, data } = await downloads.get(url)!;
    const dataUrl = `data:${mediaType};base64,${data}`;
    part.image_url = typeof part.image_url === "string" ? dataUrl : { ...part.image_url, url: dataUrl };
  }
  return true;
}
