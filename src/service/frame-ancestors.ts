/**
 * CONSOLE_FRAME_ANCESTORS: the origins (https://portal.example.com) allowed to show the console in a frame,
 * separated by spaces or commas, or 'self'. Empty: no page may frame it.
 */
export function parseFrameAncestors(value = ""): string[] {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  return entries.map((entry) => {
    if (entry === "'self'" || entry === "self") return "'self'";
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {}
    if (!url || !["http:", "https:"].includes(url.protocol) || url.origin !== entry.replace(/\/$/, "")) {
      throw new Error(`CONSOLE_FRAME_ANCESTORS: "${entry}" is not an origin like https://portal.example.com or 'self'`);
    }
    return url.origin;
  });
}
