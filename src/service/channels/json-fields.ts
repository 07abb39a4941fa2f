import { RESPONSES_API_MODES, RESPONSES_API_SETTING } from "../../shared/responses-api";
import { refuse } from "../errors";
import { mapModel } from "../relay/model-mapping";

/** The JSON text fields of a channel: empty means none, anything else must be a JSON object; stored as given, trimmed. */

function objectOf(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(`${name} must be valid JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) refuse(`${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** Follows every chain the way the relay will, so a mapping it would refuse is never stored. */
function refuseCycle(mapping: Record<string, string>): void {
  for (const from of Object.keys(mapping)) {
    try {
      mapModel(mapping, from);
    } catch {
      refuse(`model_mapping contains a cycle starting at ${from}`);
    }
  }
}

/** {"requested model": "upstream model"}; chains are allowed, cycles are not. */
export function modelMappingOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  const mapping = objectOf(trimmed, "model_mapping");
  for (const [from, to] of Object.entries(mapping)) {
    if (!from.trim() || typeof to !== "string" || !to.trim())
      refuse("model_mapping must map model names to model names");
  }
  refuseCycle(mapping as Record<string, string>);
  return trimmed;
}

const isStatus = (value: unknown) =>
  /^[1-5]\d\d$/.test(String(value)) && (typeof value === "string" || Number.isInteger(value));

/** {"upstream status": replacement status}, e.g. {"400": "500"}; replacements may be strings or integers. */
export function statusCodeMappingOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  for (const [from, to] of Object.entries(objectOf(trimmed, "status_code_mapping"))) {
    if (!isStatus(from) || !isStatus(to))
      refuse("status_code_mapping must map HTTP statuses (100-599) to HTTP statuses");
  }
  return trimmed;
}

/** Upstream body members an override may not set: the billed model, and the call's shape the relay relies on. */
export const PROTECTED_PARAMS = ["model", "stream"];
/** Upstream headers an override may not set: the channel's key travels in these. */
export const PROTECTED_HEADERS = ["authorization", "x-api-key", "x-goog-api-key", "api-key", "host", "content-length"];

/** {"member": value, ...} merged into the upstream body (objects merged member by member), last. */
export function paramOverrideOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  for (const name of Object.keys(objectOf(trimmed, "param_override"))) {
    if (PROTECTED_PARAMS.includes(name)) refuse(`param_override cannot set ${name}`);
  }
  return trimmed;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** {"Header-Name": "value" | "{client_header:Name}"}: extra upstream headers, set last. */
export function headerOverrideOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  for (const [name, value] of Object.entries(objectOf(trimmed, "header_override"))) {
    if (!HEADER_NAME.test(name)) refuse(`header_override: "${name}" is not a header name`);
    if (PROTECTED_HEADERS.includes(name.toLowerCase())) refuse(`header_override cannot set ${name}`);
    if (typeof value !== "string" || /[\r\n]/.test(value))
      refuse(`header_override: the value of ${name} must be one line of text`);
  }
  return trimmed;
}

export function settingOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const mode = objectOf(trimmed, "setting")[RESPONSES_API_SETTING];
  if (mode !== undefined && !(RESPONSES_API_MODES as readonly unknown[]).includes(mode)) {
    refuse(`setting.${RESPONSES_API_SETTING} must be one of ${RESPONSES_API_MODES.join(", ")}`);
  }
  return trimmed;
}
