import type { NewLogRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import type { Price } from "../billing/pricing";
import type { Usage } from "../billing/quota";
import { nowSeconds } from "../time";
import type { RelayCaller } from "./caller";

export interface CallRecord {
  caller: RelayCaller;
  /** The model the client asked for: what is billed and logged. */
  model: string;
  upstreamModel: string;
  group: string;
  price: Price;
  usage: Usage;
  /** Counted by us with the tokenizer because the upstream reported no usage. */
  estimated: boolean;
  quota: number;
  channelId: number;
  /** Every channel tried, in order. */
  channelsTried: number[];
  /** The key of a multi-key channel that answered. */
  multiKeyIndex?: number;
  stream: boolean;
  startedAt: number;
  firstResponseMs: number;
  requestId: string;
  ip: string;
  streamEnd?: string;
  /** The dialect the client spoke (openai, anthropic, gemini, responses). */
  inbound: string;
  /** The family of the channel that answered (openai, azure, anthropic, gemini). */
  family: string;
  /** The kind of client that called (see client-type.ts); absent for calls no client header came with. */
  clientType?: string;
  /** More facts of the call for `other` (e.g. dropped_tools). */
  notes?: Record<string, unknown>;
}

/** The consume log row (type 2) of a settled call, with every price factor in `other`. */
export function consumeLog(r: CallRecord): NewLogRow {
  const p = r.price;
  // Built in the order the JSON keeps, without spreads (this runs on every call).
  const other: Record<string, unknown> = {
    frt: r.firstResponseMs,
    model_ratio: p.kind === "ratio" ? p.modelRatio : 0,
    completion_ratio: p.kind === "ratio" ? p.completionRatio : 0,
    cache_ratio: p.kind === "ratio" ? p.cacheRatio : 0,
    cache_tokens: r.usage.cachedTokens,
  };
  if (r.usage.cacheWriteTokens) {
    other.cache_creation_tokens = r.usage.cacheWriteTokens;
    other.cache_creation_ratio = p.kind === "ratio" ? p.createCacheRatio : 0;
  }
  other.model_price = p.kind === "per-call" ? p.modelPrice : -1;
  other.group_ratio = p.groupRatio;
  other.user_group_ratio = p.userGroupRatio;
  other.upstream_model_name = r.upstreamModel;
  other.is_model_mapped = r.upstreamModel !== r.model;
  other.usage_source = r.estimated ? "estimated" : "upstream";
  if (r.streamEnd)
    other.stream_status = {
      status: r.streamEnd === "done" || r.streamEnd === "eof" ? "ok" : "error",
      end_reason: r.streamEnd,
    };
  other.inbound = r.inbound;
  other.family = r.family;
  if (r.clientType) other.client_type = r.clientType;
  if (r.notes) Object.assign(other, r.notes);
  other.admin_info =
    r.multiKeyIndex === undefined
      ? { use_channel: r.channelsTried }
      : { use_channel: r.channelsTried, is_multi_key: true, multi_key_index: r.multiKeyIndex };
  return {
    user_id: r.caller.user.id,
    username: r.caller.user.username,
    created_at: nowSeconds(),
    type: LogType.Consume,
    content: r.estimated ? "usage counted by the gateway: the upstream reported none" : "",
    token_name: r.caller.token?.name ?? "playground",
    token_id: r.caller.token?.id ?? 0,
    model_name: r.model,
    quota: r.quota,
    prompt_tokens: r.usage.promptTokens,
    completion_tokens: r.usage.completionTokens,
    use_time: Math.max(0, Math.round((Date.now() - r.startedAt) / 1000)),
    is_stream: r.stream ? 1 : 0,
    channel_id: r.channelId,
    group: r.group,
    ip: r.ip,
    request_id: r.requestId,
    other: JSON.stringify(other),
  };
}

/** The error log row (type 5) of a call that failed, kept only when ErrorLogEnabled is on. */
export function errorLog(r: {
  caller: RelayCaller;
  model: string;
  group: string;
  path: string;
  status: number;
  code: string;
  message: string;
  channelsTried: number[];
  requestId: string;
  ip: string;
  startedAt: number;
}): NewLogRow {
  return {
    user_id: r.caller.user.id,
    username: r.caller.user.username,
    created_at: nowSeconds(),
    type: LogType.Error,
    content: `status_code=${r.status}, ${r.message}`.slice(0, 2000),
    token_name: r.caller.token?.name ?? "playground",
    token_id: r.caller.token?.id ?? 0,
    model_name: r.model,
    use_time: Math.max(0, Math.round((Date.now() - r.startedAt) / 1000)),
    channel_id: r.channelsTried.at(-1) ?? 0,
    group: r.group,
    ip: r.ip,
    request_id: r.requestId,
    other: JSON.stringify({
      request_path: r.path,
      error_code: r.code,
      status_code: r.status,
      admin_info: { use_channel: r.channelsTried },
    }),
  };
}
