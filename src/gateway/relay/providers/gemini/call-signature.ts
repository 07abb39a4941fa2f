/**
 * Gemini's thought signatures ride in the tool-call id OpenAI's clients echo back. Gemini 3 refuses a later turn
 * whose function call lost the signature it came with (the thinking state of that step); OpenAI's dialect has no
 * field for it, and clients keep a tool call's id faithfully, so the id carries it: `call_<32 hex>_ts_<signature
 * in base64url>` (only letters, digits, `_` and `-`, as every client and Claude's tool_use ids accept).
 */
const SIGNED = /^call_[0-9a-f]{32}_ts_([A-Za-z0-9_-]+)$/;

const toBase64Url = (base64: string) => base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const fromBase64Url = (text: string) => {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return base64 + "=".repeat((4 - (base64.length % 4)) % 4);
};

/** A function call's id for the client: Gemini's own when it gave one, else new, with the signature when present. */
export function callIdOf(part: any): string {
  const id = part?.functionCall?.id;
  if (typeof id === "string" && id) return id;
  const fresh = `call_${crypto.randomUUID().replaceAll("-", "")}`;
  const signature = part?.thoughtSignature;
  return typeof signature === "string" && signature ? `${fresh}_ts_${toBase64Url(signature)}` : fresh;
}

/** The thought signature a tool-call id carries back, if it does. */
export function signatureOf(id: string): string | undefined {
  const match = SIGNED.exec(id);
  return match ? fromBase64Url(match[1]!) : undefined;
}
