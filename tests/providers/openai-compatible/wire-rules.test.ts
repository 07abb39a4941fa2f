import { describe, expect, test } from "bun:test";
import { providerFor } from "../../../src/gateway/relay/providers/registry";

const KEY = "sk-vendor-key";
const chat = { path: "/v1/chat/completions", model: "m-1", body: "{}", contentType: "application/json", stream: false };
const channelOf = (type: number, other = "", base_url = "") => ({ type, key: `${KEY}\nsk-second`, base_url, other });

/** [type, other, the address a chat call goes to on the type's default base URL] (compat §8.1, wire-rules.ts). */
const CHAT_ADDRESSES: [number, string, string][] = [
  [1, "", "https://api.openai.com/v1/chat/completions"],
  [4, "", "http://localhost:11434/v1/chat/completions"],
  [16, "", "https://open.bigmodel.cn/api/paas/v4/chat/completions"],
  [17, "", "https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions"],
  [18, "", "https://spark-api-open.xf-yun.com/v1/chat/completions"],
  [18, "v2", "https://spark-api-open.xf-yun.com/v2/chat/completions"],
  [20, "", "https://openrouter.ai/api/v1/chat/completions"],
  [23, "", "https://api.hunyuan.cloud.tencent.com/v1/chat/completions"],
  [25, "", "https://api.moonshot.cn/v1/chat/completions"],
  [26, "", "https://open.bigmodel.cn/api/paas/v4/chat/completions"],
  [27, "", "https://api.perplexity.ai/chat/completions"],
  [35, "", "https://api.minimax.chat/v1/chat/completions"],
  [39, "acc-42", "https://api.cloudflare.com/client/v4/accounts/acc-42/ai/v1/chat/completions"],
  [40, "", "https://api.siliconflow.cn/v1/chat/completions"],
  [42, "", "https://api.mistral.ai/v1/chat/completions"],
  [43, "", "https://api.deepseek.com/v1/chat/completions"],
  [45, "", "https://ark.cn-beijing.volces.com/api/v3/chat/completions"],
  [46, "", "https://qianfan.baidubce.com/v2/chat/completions"],
  [48, "", "https://api.x.ai/v1/chat/completions"],
];

/** [type, base URL, other, the model list's address] for the types whose upstream lists models. */
const MODEL_LISTS: [number, string, string, string][] = [
  [1, "https://api.openai.com", "", "https://api.openai.com/v1/models"],
  [4, "http://localhost:11434", "", "http://localhost:11434/api/tags"],
  [20, "https://openrouter.ai/api", "", "https://openrouter.ai/api/v1/models"],
  [25, "https://api.moonshot.cn", "", "https://api.moonshot.cn/v1/models"],
  [47, "http://xinference.lan:9997", "", "http://xinference.lan:9997/v1/models"],
];

describe("OpenAI-compatible vendors: each type's own path and its key as a Bearer token", () => {
  test.each(CHAT_ADDRESSES)("type %d (other %p) calls %s with the first key as a Bearer token", (type, other, url) => {
    expect(providerFor(type).request(channelOf(type, other), chat)).toEqual({
      url,
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    });
  });

  test("every call keeps its own path under the vendor's prefix, and a channel's base URL replaces the default", () => {
    const embeddings = { ...chat, path: "/v1/embeddings" };
    expect(providerFor(17).request(channelOf(17), embeddings).url).toBe(
      "https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings",
    );
    expect(providerFor(26).request(channelOf(26, "", "https://glm.proxy.example/"), chat).url).toBe(
      "https://glm.proxy.example/api/paas/v4/chat/completions",
    );
  });

  test("Cloudflare's account id goes into the address, escaped", () => {
    expect(providerFor(39).request(channelOf(39, " a/b "), chat).url).toBe(
      "https://api.cloudflare.com/client/v4/accounts/a%2Fb/ai/v1/chat/completions",
    );
  });

  test("Custom (8): the base URL is the whole address, {model} replaced by the upstream model", () => {
    const custom = channelOf(8, "", "https://llm.example/deploy/{model}/chat?tier=1");
    expect(providerFor(8).request(custom, { ...chat, model: "qwen/72b" }).url).toBe(
      "https://llm.example/deploy/qwen%2F72b/chat?tier=1",
    );
    expect(providerFor(8).request(channelOf(8, "", "https://llm.example/v1/chat/completions"), chat).url).toBe(
      "https://llm.example/v1/chat/completions",
    );
  });

  test.each(MODEL_LISTS)("type %d lists its models at the vendor's address", (type, base, other, url) => {
    const listing = providerFor(type).models!;
    expect(listing.types!.has(type)).toBe(true);
    expect(listing.url(base, channelOf(type, other), undefined)).toBe(url);
    expect(listing.headers(channelOf(type))).toEqual({ authorization: `Bearer ${KEY}` });
  });

  test("model lists read OpenAI's {data: [{id}]} and Ollama's {models: [{name}]}", () => {
    const listing = providerFor(4).models!;
    expect(listing.page({ models: [{ name: "llama3:8b" }, { name: "qwen2:7b" }] })).toEqual({
      ids: ["llama3:8b", "qwen2:7b"],
    });
    expect(listing.page({ data: [{ id: "gpt-4o" }] })).toEqual({ ids: ["gpt-4o"] });
    expect(listing.page({ data: "none" })).toBeUndefined();
  });
});
