import type { ChannelRow } from "../../db/schema";
import { PROTECTED_HEADERS, PROTECTED_PARAMS } from "../channels/json-fields";
import { parseMapping } from "./model-mapping";

/** A channel's param_override and header_override, parsed once; undefined when it has neither. */
export interface ChannelOverrides {
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const CLIENT_HEADER = /^\{client_header:([^}]+)\}$/;

const without = <T>(map: Record<string, T>, names: string[]) => {
  const kept = Object.entries(map).filter(([name]) => !names.includes(name.toLowerCase()));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
};

export function overridesOf(row: Pick<ChannelRow, "param_override" | "header_override">): ChannelOverrides | undefined {
  const params = without(parseMapping(row.param_override) as Record<string, unknown>, PROTECTED_PARAMS);
  const headers = without(parseMapping(row.header_override), PROTECTED_HEADERS);
  return params || headers ? { params, headers } : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `base` with `extra` merged in: objects member by member, anything else replaced. */
function merged(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    const current = out[name];
    out[name] = isObject(current) && isObject(value) ? merged(current, value) : value;
  }
  return out;
}

/** A JSON body with the channel's params merged in (the model and stream members are never touched). */
export function overriddenBody(body: string, params: Record<string, unknown>): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (!isObject(parsed)) return body;
  return JSON.stringify(merged(parsed, params));
}

/**
 * Headers with the channel's extra ones set over them (same name in any case replaced); a value
 * "{client_header:Name}" takes the client's header of that name, and is left out when the client sent none.
 */
export function overriddenHeaders(
  headers: Record<string, string>,
  extra: Record<string, string>,
  clientHeader: (name: string) => string | null,
): Record<string, string> {
  const out = { ...headers };
  for (const [name, value] of Object.entries(extra)) {
    const copied = CLIENT_HEADER.exec(value);
    const final = copied ? clientHeader(copied[1]!.trim()) : value;
    for (const existing of Object.keys(out)) if (existing.toLowerCase() === name.toLowerCase()) delete out[existing];
    if (final !== null && final !== "") out[name] = final;
  }
  return out;
}
