import { createHash, timingSafeEqual } from "node:crypto";

/** Epay's MD5 signature: the non-empty parameters but sign and sign_type, sorted by name, as k=v&k=v, then the key. */
export function signEpay(params: Record<string, string | undefined>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== "sign" && name !== "sign_type" && params[name])
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join("&");
  return createHash("md5")
    .update(text + key, "utf8")
    .digest("hex");
}

/** Whether `params.sign` is the signature of the other parameters under `key`, compared in constant time. */
export function isEpaySigned(params: Record<string, string | undefined>, key: string): boolean {
  const given = Buffer.from((params.sign ?? "").toLowerCase());
  const expected = Buffer.from(signEpay(params, key));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
