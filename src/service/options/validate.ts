import { normalizeAllowList } from "../egress/allow-list";
import { ServiceError, refuse } from "../errors";
import { shapeMismatch } from "./json-shapes";
import type { OptionDef, OptionKind } from "./registry";

const fail = (def: OptionDef, why: string): never => refuse(`${def.key} ${why}`);

function number(def: OptionDef, raw: string, whole: boolean): string {
  const n = Number(raw);
  if (raw === "" || !Number.isFinite(n)) fail(def, "must be a number");
  if (whole && !Number.isSafeInteger(n)) fail(def, "must be a whole number");
  if (def.min !== undefined && n < def.min) fail(def, `must be at least ${def.min}`);
  if (def.max !== undefined && n > def.max) fail(def, `must be at most ${def.max}`);
  return String(n);
}

function address(def: OptionDef, raw: string): string {
  const value = raw.replace(/\/+$/, "");
  if (value === "") return "";
  let protocol = "";
  try {
    protocol = new URL(value).protocol;
  } catch {}
  if (protocol !== "http:" && protocol !== "https:") fail(def, "must be an http:// or https:// address");
  return value;
}

const CODE_OR_RANGE = /^(\d{3})(?:-(\d{3}))?$/;

function statusCodes(def: OptionDef, raw: string): string {
  const parts = raw.replace(/\s+/g, "").split(",").filter(Boolean);
  for (const part of parts) {
    const match = CODE_OR_RANGE.exec(part);
    const low = Number(match?.[1]);
    const high = Number(match?.[2] ?? low);
    if (!match || low < 100 || high > 599 || low > high)
      fail(def, "must list HTTP status codes or ranges, e.g. 401,500-599");
  }
  return parts.join(",");
}

function json(def: OptionDef, raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    fail(def, "is not a valid JSON string");
  }
  const mismatch = shapeMismatch(def.shape!, parsed);
  if (mismatch) fail(def, mismatch);
  return JSON.stringify(parsed);
}

/** Each kind's check and stored form; all but text receive the value trimmed. */
const NORMALIZERS: Record<OptionKind, (def: OptionDef, raw: string) => string> = {
  bool: (def, raw) => (raw === "true" || raw === "false" ? raw : fail(def, "must be true or false")),
  int: (def, raw) => number(def, raw, true),
  float: (def, raw) => number(def, raw, false),
  choice: (def, raw) => (def.choices!.includes(raw) ? raw : fail(def, `must be one of ${def.choices!.join(", ")}`)),
  string: (_def, raw) => raw,
  text: (_def, raw) => raw,
  address,
  "comma-list": (_def, raw) =>
    raw
      .split(/[,\n]/)
      .map((item) => item.trim())
      .filter(Boolean)
      .join(","),
  "status-codes": statusCodes,
  json,
  "allow-list": (def, raw) =>
    normalizeAllowList(
      raw,
      (entry) => new ServiceError(`${def.key}: "${entry}" is not an IP address, a CIDR range or a host name`),
    ).join(","),
};

/** Turns a submitted value (string, number or boolean; JSON options also take the parsed JSON) into the stored string, or refuses it. */
export function normalizeOptionValue(def: OptionDef, value: unknown): string {
  if (value === null || value === undefined) return refuse(`${def.key}: a value is required`);
  if (typeof value === "object") {
    if (def.kind !== "json") refuse(`${def.key} must be a string, number or boolean`);
    value = JSON.stringify(value);
  }
  const text = String(value);
  return NORMALIZERS[def.kind](def, def.kind === "text" ? text : text.trim());
}
