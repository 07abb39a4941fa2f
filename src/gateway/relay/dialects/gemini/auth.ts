/** The caller's key: the `x-goog-api-key` header, else the `?key=` query parameter (as Google's SDKs send it). */
export function geminiKey(headers: Headers, url: URL): string | undefined {
  const key = headers.get("x-goog-api-key")?.trim() || url.searchParams.get("key")?.trim();
  return key || undefined;
}
