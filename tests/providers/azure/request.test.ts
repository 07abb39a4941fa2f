import { describe, expect, test } from "bun:test";
import { azureProvider } from "../../../src/gateway/relay/providers/azure/provider";

const channel = (other: string) => ({
  type: 3,
  key: "azure-key-1\nazure-key-2",
  base_url: "https://example.openai.azure.com/",
  other,
});
const call = {
  path: "/v1/chat/completions",
  model: "gpt-4.1-mini",
  body: "{}",
  contentType: "application/json",
  stream: false,
};

describe("Azure OpenAI requests", () => {
  test("a channel with a blank `other` is called with API version 2025-04-01-preview", () => {
    expect(azureProvider.request(channel(" "), call).url).toBe(
      "https://example.openai.azure.com/openai/deployments/gpt-41-mini/chat/completions?api-version=2025-04-01-preview",
    );
  });

  test("`other` names the API version; the first key goes in the api-key header", () => {
    const request = azureProvider.request(channel("2024-10-21"), call);
    expect(request.url).toEndWith("?api-version=2024-10-21");
    expect(request.headers).toEqual({ "api-key": "azure-key-1", "content-type": "application/json" });
    expect(request.body).toBeUndefined();
  });

  test("the Responses API and its calls by id go to /openai/v1/responses, not under a deployment", () => {
    const responses = { ...call, path: "/v1/responses" };
    expect(azureProvider.request(channel("2024-10-21"), responses).url).toBe(
      "https://example.openai.azure.com/openai/v1/responses?api-version=preview",
    );
    expect(azureProvider.request(channel(""), { ...responses, path: "/v1/responses/resp_1/input_items" }).url).toBe(
      "https://example.openai.azure.com/openai/v1/responses/resp_1/input_items?api-version=preview",
    );
  });
});
