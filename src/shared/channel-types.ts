/** Channel types and statuses, as the console and the server both speak them. */

export const ChannelStatus = { Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;
export type ChannelStatusValue = (typeof ChannelStatus)[keyof typeof ChannelStatus];

/** What a channel's `other` field holds for a type; the console names it in the reader's language. */
export type OtherMeaning = "api-version" | "spark-version" | "knowledge-base" | "account-id" | "region" | "bot-id";

export interface OtherFacts {
  meaning: OtherMeaning;
  /** What a blank `other` stands for upstream, and what a new channel of the type starts with. */
  default?: string;
  /** An example the channel form shows. */
  example: string;
  /** The channel form asks for it (spec §2's special forms); a blank answer is allowed when `optional`. */
  asked: boolean;
  optional?: true;
}

/**
 * What the console and the server both know of one channel type. The relay's providers
 * (src/gateway/relay/providers) serve these types; tests/providers/registry.test.ts checks that they agree.
 */
export interface ChannelTypeFacts {
  name: string;
  /** Used when the channel's base_url is empty; "" where the type has none and the channel must say. */
  baseUrl: string;
  other?: OtherFacts;
  /** The upstream lists its models (POST/GET /api/channel/fetch_models). */
  listsModels?: true;
  /** The upstream reports the account's balance (GET /api/channel/update_balance). */
  reportsBalance?: true;
  /** The channel form insists on a base URL: the operator's own address, no usable default. */
  baseUrlRequired?: true;
  /** The base URL is the full address requests are sent to (the form says so). */
  baseUrlIsFullAddress?: true;
  /** The key is a service account's JSON key (the form says so). */
  keyIsServiceAccount?: true;
  /** The form asks for OpenAI's organization. */
  asksOrganization?: true;
  /** A new channel of the type starts with the type's own model list (drawing and music types). */
  ownModels?: true;
}

export interface ChannelType extends ChannelTypeFacts {
  id: number;
}

const KNOWLEDGE_BASE: OtherFacts = {
  meaning: "knowledge-base",
  example: "123e4567-e89b-12d3-a456-426614174000",
  asked: true,
};

/** Every type a channel may have, by number (compat §8.1; 0 "Unknown" and the unused 28–30, 32 are not among them). */
const TABLE = {
  1: {
    name: "OpenAI",
    baseUrl: "https://api.openai.com",
    listsModels: true,
    reportsBalance: true,
    asksOrganization: true,
  },
  2: { name: "Midjourney", baseUrl: "https://oa.api2d.net", ownModels: true },
  3: {
    name: "Azure",
    baseUrl: "",
    baseUrlRequired: true,
    other: { meaning: "api-version", default: "2025-04-01-preview", example: "2025-04-01-preview", asked: true },
  },
  4: { name: "Ollama", baseUrl: "http://localhost:11434", listsModels: true },
  5: { name: "MidjourneyPlus", baseUrl: "https://api.openai-sb.com", ownModels: true },
  6: { name: "OpenAIMax", baseUrl: "https://api.openaimax.com", listsModels: true },
  7: { name: "OhMyGPT", baseUrl: "https://api.ohmygpt.com", listsModels: true },
  8: {
    name: "Custom",
    baseUrl: "",
    baseUrlRequired: true,
    baseUrlIsFullAddress: true,
  },
  9: { name: "AILS", baseUrl: "https://api.caipacity.com", listsModels: true },
  10: { name: "AIProxy", baseUrl: "https://api.aiproxy.io", listsModels: true },
  11: { name: "PaLM", baseUrl: "" },
  12: { name: "API2GPT", baseUrl: "https://api.api2gpt.com", listsModels: true },
  13: { name: "AIGC2D", baseUrl: "https://api.aigc2d.com", listsModels: true },
  14: { name: "Anthropic", baseUrl: "https://api.anthropic.com", listsModels: true },
  15: { name: "Baidu", baseUrl: "https://aip.baidubce.com" },
  16: { name: "Zhipu", baseUrl: "https://open.bigmodel.cn", listsModels: true },
  17: { name: "Ali", baseUrl: "https://dashscope.aliyuncs.com", listsModels: true },
  18: {
    name: "Xunfei",
    baseUrl: "https://spark-api-open.xf-yun.com",
    other: { meaning: "spark-version", default: "v1", example: "v1", asked: true, optional: true },
  },
  19: { name: "360", baseUrl: "https://api.360.cn", listsModels: true },
  20: { name: "OpenRouter", baseUrl: "https://openrouter.ai/api", listsModels: true },
  21: { name: "AIProxyLibrary", baseUrl: "https://api.aiproxy.io", other: KNOWLEDGE_BASE },
  // FastGPT has no model list; its knowledge base ID (the app's id) is needed only with a key not bound to one app.
  22: { name: "FastGPT", baseUrl: "https://fastgpt.run/api/openapi", other: { ...KNOWLEDGE_BASE, optional: true } },
  23: { name: "Tencent", baseUrl: "https://api.hunyuan.cloud.tencent.com", listsModels: true },
  24: {
    name: "Gemini",
    baseUrl: "https://generativelanguage.googleapis.com",
    listsModels: true,
    other: { meaning: "api-version", default: "v1beta", example: "v1beta", asked: false },
  },
  25: { name: "Moonshot", baseUrl: "https://api.moonshot.cn", listsModels: true },
  26: { name: "ZhipuV4", baseUrl: "https://open.bigmodel.cn", listsModels: true },
  27: { name: "Perplexity", baseUrl: "https://api.perplexity.ai" },
  31: { name: "LingYiWanWu", baseUrl: "https://api.lingyiwanwu.com", listsModels: true },
  33: {
    name: "AWS",
    baseUrl: "",
    listsModels: true,
    other: { meaning: "region", example: "us-east-1", asked: true },
  },
  34: { name: "Cohere", baseUrl: "https://api.cohere.ai", listsModels: true },
  35: { name: "MiniMax", baseUrl: "https://api.minimax.chat", listsModels: true },
  36: { name: "SunoAPI", baseUrl: "", baseUrlRequired: true, ownModels: true },
  37: { name: "Dify", baseUrl: "https://api.dify.ai" },
  38: { name: "Jina", baseUrl: "https://api.jina.ai" },
  39: {
    name: "Cloudflare",
    baseUrl: "https://api.cloudflare.com",
    listsModels: true,
    other: { meaning: "account-id", example: "d6b5da8hk1awo8nap34ube6gh", asked: true },
  },
  40: { name: "SiliconFlow", baseUrl: "https://api.siliconflow.cn", listsModels: true },
  41: {
    name: "VertexAI",
    baseUrl: "",
    keyIsServiceAccount: true,
    listsModels: true,
    other: { meaning: "region", default: "us-central1", example: "us-central1", asked: true, optional: true },
  },
  42: { name: "Mistral", baseUrl: "https://api.mistral.ai", listsModels: true },
  43: { name: "DeepSeek", baseUrl: "https://api.deepseek.com", listsModels: true },
  44: { name: "MokaAI", baseUrl: "https://api.moka.ai" },
  45: { name: "VolcEngine", baseUrl: "https://ark.cn-beijing.volces.com", listsModels: true },
  46: { name: "BaiduV2", baseUrl: "https://qianfan.baidubce.com", listsModels: true },
  47: { name: "Xinference", baseUrl: "", listsModels: true, baseUrlRequired: true },
  48: { name: "xAI", baseUrl: "https://api.x.ai", listsModels: true },
  49: {
    name: "Coze",
    baseUrl: "https://api.coze.cn",
    other: { meaning: "bot-id", example: "7342866812345678901", asked: true },
  },
  50: { name: "Kling", baseUrl: "https://api.klingai.com" },
  51: { name: "Jimeng", baseUrl: "https://visual.volcengineapi.com" },
  52: { name: "Vidu", baseUrl: "https://api.vidu.cn" },
  53: { name: "Submodel", baseUrl: "https://llm.submodel.ai" },
  54: { name: "DoubaoVideo", baseUrl: "https://ark.cn-beijing.volces.com" },
  55: { name: "Sora", baseUrl: "https://api.openai.com" },
  56: { name: "Replicate", baseUrl: "https://api.replicate.com" },
  57: { name: "Codex", baseUrl: "https://chatgpt.com" },
} as const satisfies Record<number, ChannelTypeFacts>;

/** A channel type's number. */
export type ChannelTypeId = keyof typeof TABLE;

export const CHANNEL_TYPES: ReadonlyMap<number, ChannelType> = new Map(
  Object.entries(TABLE).map(([id, facts]): [number, ChannelType] => [Number(id), { id: Number(id), ...facts }]),
);

/** What `other` holds in a new channel of the type: the default of a field the channel form asks for, else nothing. */
export function otherStartOf(type: number): string {
  const other = CHANNEL_TYPES.get(type)?.other;
  return (other?.asked && other.default) || "";
}

/** Where a channel's requests go: its base URL, else its type's default, without trailing slashes ("": nowhere). */
export const baseUrlOf = (channel: { readonly type: number; readonly base_url: string }): string =>
  (channel.base_url || CHANNEL_TYPES.get(channel.type)?.baseUrl || "").replace(/\/+$/, "");

export const channelTypeName = (type: number): string => CHANNEL_TYPES.get(type)?.name ?? `type ${type}`;

/** A channel as the management API shows it: never the key (root reveals it through POST /api/channel/{id}/key). */
export interface ChannelView {
  id: number;
  type: number;
  name: string;
  status: number;
  base_url: string;
  other: string;
  /** Comma list. */
  models: string;
  /** Comma list of groups. */
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  /** JSON: a multi-key channel's per-key state (never a key); '' for a single key. */
  channel_info: string;
  /** JSON object merged into the upstream body; '' for none. */
  param_override: string;
  /** JSON object of extra upstream headers; a value "{client_header:Name}" copies the client's header. */
  header_override: string;
  tag: string;
  priority: number;
  weight: number;
  test_model: string;
  openai_organization: string;
  auto_ban: number;
  /** Milliseconds of the last test; 0 untested. */
  response_time: number;
  /** USD, as the upstream last reported it. */
  balance: number;
  balance_updated_time: number;
  used_quota: number;
  created_time: number;
  test_time: number;
  /** JSON {status_reason, status_time} while auto-disabled, else "". */
  other_info: string;
  remark: string;
}

/** A row of the list in tag mode: every listed channel sharing a tag, or (tag "") one untagged channel. */
export interface ChannelTagRow {
  tag: string;
  channels: ChannelView[];
}
