import type { ProviderChannel } from "../types";

/**
 * How one vendor's model list is read: OpenAI's {data: [{id}]} under the API's path, Ollama's own tags, or
 * Cloudflare's model search of the account (the OpenAI-compatible API has no list there).
 */
export type ModelListStyle = "openai" | "ollama-tags" | "cloudflare-search";

/**
 * One channel type's wire rules on top of OpenAI's dialect. Every vendor here takes the channel's key as
 * `Authorization: Bearer <key>` (checked by tests/support/fake-compat.ts); they differ in where the API lives.
 */
export interface WireRule {
  /** What stands for OpenAI's `/v1` between the base URL and the call (`/chat/completions`, `/models`, ...). */
  readonly prefix: string | ((channel: ProviderChannel) => string);
  /** The upstream lists its models (compat §8.1's listing types, plus the vendors whose docs show one). */
  readonly models?: ModelListStyle;
}

const OPENAI: WireRule = { prefix: "/v1", models: "openai" };

/** Spark's HTTP API version from `other`: v1 for the Spark models, v2 for Spark X1. */
export const SPARK_DEFAULT_VERSION = "v1";

/**
 * The OpenAI-compatible types by number (compat §8.1 default addresses in src/shared/channel-types.ts). Where
 * compat.md names only a host, the path is the vendor's documented OpenAI-compatible base:
 * - Zhipu (16, 26): https://open.bigmodel.cn/api/paas/v4 (open.bigmodel.cn docs, "OpenAI SDK compatibility");
 *   the v4 API takes the legacy `id.secret` keys as Bearer tokens too.
 * - Ali DashScope (17): /compatible-mode/v1 (help.aliyun.com, "OpenAI compatible - DashScope").
 * - Xunfei Spark (18): https://spark-api-open.xf-yun.com/{v1|v2}/chat/completions, Bearer APIPassword
 *   (www.xfyun.cn/doc/spark/HTTP调用文档.html; v2 serves Spark X1).
 * - Tencent Hunyuan (23): https://api.hunyuan.cloud.tencent.com/v1 (cloud.tencent.com/document/product/1729/111007).
 * - Perplexity (27): https://api.perplexity.ai/chat/completions, no /v1 (docs.perplexity.ai).
 * - Cloudflare Workers AI (39): /client/v4/accounts/{account id}/ai/v1
 *   (developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility).
 * - VolcEngine Ark (45): /api/v3 (volcengine.com/docs/82379, "Base URL").
 * - Baidu Qianfan v2 (46): https://qianfan.baidubce.com/v2 (cloud.baidu.com/doc/qianfan-api).
 * - Ollama (4): /v1 on the local server, its models from /api/tags (github.com/ollama/ollama docs/openai.md, api.md).
 * Model lists: the vendors above answer GET {prefix}/models in OpenAI's shape with the same Bearer key
 * (DashScope /compatible-mode/v1/models, Zhipu /api/paas/v4/models, Hunyuan /v1/models, MiniMax /v1/models,
 * Ark /api/v3/models, Qianfan /v2/models); Cloudflare lists through its account API,
 * GET /client/v4/accounts/{id}/ai/models/search → {result: [{name}], result_info: {page, total_pages}}.
 * Spark (18) and Perplexity (27) publish no list.
 */
export const WIRE_RULES: Readonly<Record<number, WireRule>> = {
  1: OPENAI,
  4: { prefix: "/v1", models: "ollama-tags" },
  6: OPENAI,
  7: OPENAI,
  9: OPENAI,
  10: OPENAI,
  12: OPENAI,
  13: OPENAI,
  16: { prefix: "/api/paas/v4", models: "openai" },
  17: { prefix: "/compatible-mode/v1", models: "openai" },
  18: { prefix: (channel) => `/${encodeURIComponent(channel.other.trim() || SPARK_DEFAULT_VERSION)}` },
  19: OPENAI,
  20: OPENAI,
  23: OPENAI,
  25: OPENAI,
  26: { prefix: "/api/paas/v4", models: "openai" },
  27: { prefix: "" },
  31: OPENAI,
  35: OPENAI,
  39: { prefix: (channel) => `${cloudflareAccountPath(channel)}/ai/v1`, models: "cloudflare-search" },
  40: OPENAI,
  42: OPENAI,
  43: OPENAI,
  45: { prefix: "/api/v3", models: "openai" },
  46: { prefix: "/v2", models: "openai" },
  47: OPENAI,
  48: OPENAI,
};

/** Cloudflare's account path, under which both its OpenAI-compatible API and its model search live. */
export const cloudflareAccountPath = (channel: ProviderChannel): string =>
  `/client/v4/accounts/${encodeURIComponent(channel.other.trim())}`;

/** The part of the address between the base URL and the call, for a type of WIRE_RULES. */
export const prefixOf = (rule: WireRule, channel: ProviderChannel): string =>
  typeof rule.prefix === "string" ? rule.prefix : rule.prefix(channel);
