/** Cross-region inference profiles prefix a model id with their geography (us.anthropic.claude-…). */
const PROFILE = /^(us|eu|apac|global|us-gov|jp|au|ca)\./;

/**
 * The Bedrock model id for a model name. Bedrock ids (`anthropic.claude-…-v1:0`, `meta.llama…`), inference
 * profiles (`us.anthropic.…`) and ARNs pass as they are; an Anthropic API name (`claude-sonnet-4-20250514`)
 * becomes its Bedrock id: `anthropic.` + name + `-v1:0` (`-v2:0` for the one Claude that had a second
 * version under one name). Models Bedrock serves only through a profile are mapped with the channel's model
 * mapping (e.g. `claude-sonnet-4-20250514` → `us.anthropic.claude-sonnet-4-20250514-v1:0`).
 */
export function bedrockModelId(model: string): string {
  if (!model.startsWith("claude-")) return model;
  return `anthropic.${model}-${model === "claude-3-5-sonnet-20241022" ? "v2" : "v1"}:0`;
}

/** Claude models take Anthropic's Messages body through invoke; every other model (and ARNs) goes through Converse. */
export const isClaude = (modelId: string): boolean => modelId.replace(PROFILE, "").startsWith("anthropic.claude");
