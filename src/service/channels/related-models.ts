import type { ChannelTypeId } from "../../shared/channel-types";

const OPENAI_CHAT = ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-5", "gpt-5-mini", "o3", "o4-mini"];
const OPENAI_FAMILY = ["gpt-", "chatgpt-", "o1", "o3", "o4", "text-embedding-", "whisper-", "tts-", "dall-e-"];
const CLAUDE = ["claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805", "claude-3-5-haiku-20241022"];
const GEMINI = ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.0-flash"];

/** What "fill related models" offers for a type: model names it serves, and prefixes that pick priced ones. */
interface Related {
  models: readonly string[];
  prefixes?: readonly string[];
}

/**
 * Every channel type's related models (issue #22: the button fills something for each type). A type that
 * relays whatever name it is sent (an aggregator, a custom address, an app platform) offers OpenAI's names,
 * what its clients most often ask for. Forgetting a type is a compile error.
 */
export const RELATED_MODELS = {
  1: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  2: { models: ["mj_imagine", "mj_variation", "mj_upscale", "mj_describe", "mj_blend"], prefixes: ["mj_"] },
  3: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  4: { models: ["llama3.1", "qwen2.5", "gemma2", "mistral", "deepseek-r1"] },
  5: { models: ["mj_imagine", "mj_variation", "mj_upscale", "mj_describe", "mj_blend"], prefixes: ["mj_"] },
  6: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  7: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  8: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  9: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  10: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  11: { models: ["chat-bison-001"] },
  12: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  13: { models: OPENAI_CHAT, prefixes: OPENAI_FAMILY },
  14: { models: CLAUDE, prefixes: ["claude-"] },
  15: { models: ["ERNIE-4.0-8K", "ERNIE-3.5-8K", "ERNIE-Speed-128K", "ERNIE-Lite-8K"], prefixes: ["ERNIE-"] },
  16: { models: ["chatglm_turbo", "chatglm_pro", "chatglm_std", "chatglm_lite"], prefixes: ["chatglm_"] },
  17: { models: ["qwen-turbo", "qwen-plus", "qwen-max", "qwen-long", "text-embedding-v1"], prefixes: ["qwen-"] },
  18: { models: ["SparkDesk-v1.1", "SparkDesk-v3.5", "SparkDesk-v4.0"], prefixes: ["SparkDesk"] },
  19: { models: ["360GPT_S2_V9", "360gpt-pro", "embedding-bert-512-v1"], prefixes: ["360"] },
  20: { models: ["openai/gpt-4o", "anthropic/claude-sonnet-4.5", "google/gemini-2.5-pro"] },
  21: { models: ["gpt-3.5-turbo", "gpt-4"] },
  22: { models: ["gpt-3.5-turbo", "gpt-4"] },
  23: { models: ["hunyuan-lite", "hunyuan-standard", "hunyuan-pro", "hunyuan-turbo"], prefixes: ["hunyuan"] },
  24: { models: GEMINI, prefixes: ["gemini-", "imagen-"] },
  25: { models: ["moonshot-v1-8k", "moonshot-v1-32k", "moonshot-v1-128k", "kimi-k2-0905-preview"] },
  26: { models: ["glm-4-plus", "glm-4-air", "glm-4-flash", "glm-4v", "embedding-3"], prefixes: ["glm-"] },
  27: { models: ["sonar", "sonar-pro", "sonar-reasoning"], prefixes: ["sonar"] },
  31: { models: ["yi-lightning", "yi-large", "yi-medium"], prefixes: ["yi-"] },
  33: { models: CLAUDE, prefixes: ["claude-"] },
  34: { models: ["command-r", "command-r-plus", "command-a-03-2025", "rerank-v3.5"], prefixes: ["command"] },
  35: { models: ["abab6.5s-chat", "abab6.5g-chat", "MiniMax-Text-01"], prefixes: ["abab", "MiniMax-"] },
  36: { models: ["suno_music", "suno_lyrics"], prefixes: ["suno_"] },
  37: { models: ["dify"] },
  38: { models: ["jina-embeddings-v3", "jina-reranker-v2-base-multilingual"], prefixes: ["jina-"] },
  39: { models: ["@cf/meta/llama-3.1-8b-instruct", "@cf/qwen/qwen1.5-14b-chat-awq"], prefixes: ["@cf/"] },
  40: { models: ["deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1", "Qwen/Qwen2.5-72B-Instruct"] },
  41: { models: [...GEMINI, ...CLAUDE], prefixes: ["gemini-", "claude-", "imagen-"] },
  42: { models: ["mistral-large-latest", "mistral-small-latest", "codestral-latest", "mistral-embed"] },
  43: { models: ["deepseek-chat", "deepseek-reasoner"], prefixes: ["deepseek-"] },
  44: { models: ["m3e-base", "m3e-large"] },
  45: { models: ["doubao-seed-1-6-250615", "doubao-1-5-pro-32k-250115", "deepseek-v3-250324"], prefixes: ["doubao"] },
  46: { models: ["ernie-4.0-8k-latest", "ernie-3.5-8k", "ernie-speed-128k"], prefixes: ["ernie-"] },
  47: { models: ["qwen2.5-instruct", "llama-3.1-instruct", "bge-m3"] },
  48: { models: ["grok-4", "grok-3", "grok-3-mini"], prefixes: ["grok-"] },
  49: { models: ["coze"] },
  50: { models: ["kling-v1", "kling-v1-6", "kling-v2-master"], prefixes: ["kling"] },
  51: { models: ["jimeng_vgfm_t2v_l20"], prefixes: ["jimeng"] },
  52: { models: ["viduq1", "vidu2.0"], prefixes: ["vidu"] },
  53: { models: ["deepseek-ai/DeepSeek-V3-0324", "Qwen/Qwen3-235B-A22B"] },
  54: { models: ["doubao-seedance-1-0-pro-250528"], prefixes: ["doubao-seedance"] },
  55: { models: ["sora-2", "sora-2-pro"], prefixes: ["sora"] },
  56: { models: ["black-forest-labs/flux-schnell", "black-forest-labs/flux-1.1-pro"] },
  57: { models: ["gpt-5-codex", "gpt-5"], prefixes: ["gpt-5"] },
} as const satisfies Record<ChannelTypeId, Related>;

/** The related models of a type among `priced`: its own list and the priced names its prefixes pick. */
export function relatedModelsOf(type: number, priced: readonly string[]): string[] {
  const related: Related | undefined = (RELATED_MODELS as Record<number, Related>)[type];
  if (!related) return [];
  const prefixes = related.prefixes ?? [];
  return [...related.models, ...priced.filter((model) => prefixes.some((prefix) => model.startsWith(prefix)))];
}
