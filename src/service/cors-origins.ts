/**
 * RELAY_CORS_ORIGINS: the web origins (https://app.example.com) whose pages may call the relay, separated by
 * spaces or commas, or `*` for any. Unset or empty: any origin — relay calls carry their key in a header, not
 * in a cookie, so a page of another site can do nothing with the relay that its own key does not allow.
 */
export function parseCorsOrigins(value = ""): string[] {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0 || entries.includes("*")) return ["*"];
  return entries.map((entry) => {
    const origin = URL.parse(entry)?.origin;
    if (!origin || origin === "null" || origin !== entry.replace(/\/$/, "")) {
      throw new Error(`RELAY_CORS_ORIGINS: "${entry}" is not an origin like https://app.example.com or *`);
    }
    return origin;
  });
}
