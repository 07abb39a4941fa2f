/** Channel types and statuses, as the console and the server both speak them. */

export const ChannelStatus = { Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;
export type ChannelStatusValue = (typeof ChannelStatus)[keyof typeof ChannelStatus];

export interface ChannelType {
  id: number;
  name: string;
  /** Used when the channel's base_url is empty; "" where the type has none and the channel must say. */
  baseUrl: string;
  /** Speaks the OpenAI dialect for listing models: GET {base}/v1/models with `Authorization: Bearer <key>`. */
  openai: boolean;
}

const OPENAI_LISTING = new Set([1, 4, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 31, 40, 42, 43, 47, 48]);

const TABLE: [number, string, string][] = [
  [1, "OpenAI", "https://api.openai.com"],
  [2, "Midjourney", "https://oa.api2d.net"],
  [3, "Azure", ""],
  [4, "Ollama", "http://localhost:11434"],
  [5, "MidjourneyPlus", "https://api.openai-sb.com"],
  [6, "OpenAIMax", "https://api.openaimax.com"],
  [7, "OhMyGPT", "https://api.ohmygpt.com"],
  [8, "Custom", ""],
  [9, "AILS", "https://api.caipacity.com"],
  [10, "AIProxy", "https://api.aiproxy.io"],
  [11, "PaLM", ""],
  [12, "API2GPT", "https://api.api2gpt.com"],
  [13, "AIGC2D", "https://api.aigc2d.com"],
  [14, "Anthropic", "https://api.anthropic.com"],
  [15, "Baidu", "https://aip.baidubce.com"],
  [16, "Zhipu", "https://open.bigmodel.cn"],
  [17, "Ali", "https://dashscope.aliyuncs.com"],
  [18, "Xunfei", ""],
  [19, "360", "https://api.360.cn"],
  [20, "OpenRouter", "https://openrouter.ai/api"],
  [21, "AIProxyLibrary", "https://api.aiproxy.io"],
  [22, "FastGPT", "https://fastgpt.run/api/openapi"],
  [23, "Tencent", "https://hunyuan.tencentcloudapi.com"],
  [24, "Gemini", "https://generativelanguage.googleapis.com"],
  [25, "Moonshot", "https://api.moonshot.cn"],
  [26, "ZhipuV4", "https://open.bigmodel.cn"],
  [27, "Perplexity", "https://api.perplexity.ai"],
  [31, "LingYiWanWu", "https://api.lingyiwanwu.com"],
  [33, "AWS", ""],
  [34, "Cohere", "https://api.cohere.ai"],
  [35, "MiniMax", "https://api.minimax.chat"],
  [36, "SunoAPI", ""],
  [37, "Dify", "https://api.dify.ai"],
  [38, "Jina", "https://api.jina.ai"],
  [39, "Cloudflare", "https://api.cloudflare.com"],
  [40, "SiliconFlow", "https://api.siliconflow.cn"],
  [41, "VertexAI", ""],
  [42, "Mistral", "https://api.mistral.ai"],
  [43, "DeepSeek", "https://api.deepseek.com"],
  [44, "MokaAI", "https://api.moka.ai"],
  [45, "VolcEngine", "https://ark.cn-beijing.volces.com"],
  [46, "BaiduV2", "https://qianfan.baidubce.com"],
  [47, "Xinference", ""],
  [48, "xAI", "https://api.x.ai"],
  [49, "Coze", "https://api.coze.cn"],
  [50, "Kling", "https://api.klingai.com"],
  [51, "Jimeng", "https://visual.volcengineapi.com"],
  [52, "Vidu", "https://api.vidu.cn"],
  [53, "Submodel", "https://llm.submodel.ai"],
  [54, "DoubaoVideo", "https://ark.cn-beijing.volces.com"],
  [55, "Sora", "https://api.openai.com"],
  [56, "Replicate", "https://api.replicate.com"],
  [57, "Codex", "https://chatgpt.com"],
];

/** Every type a channel may have, by id (0 "Unknown" and the unused 28–30, 32 are not among them). */
export const CHANNEL_TYPES: ReadonlyMap<number, ChannelType> = new Map(
  TABLE.map(([id, name, baseUrl]) => [id, { id, name, baseUrl, openai: OPENAI_LISTING.has(id) }]),
);

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
