/**
 * Upstream error text without the upstream's address or credentials: URLs become their scheme and "***",
 * and anything shaped like an API key is blanked.
 */
export function maskUpstreamText(text: string, secrets: string[] = []): string {
  let masked = text.replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, (url) => `${url.split("//")[0]}//***`);
  for (const secret of secrets) {
    if (secret.length >= 6) masked = masked.split(secret).join("***");
  }
  return masked
    .replace(/\b(sk|pk|rk|key|ak)-[A-Za-z0-9_-]{8,}\b/g, "$1-***")
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, "***");
}
