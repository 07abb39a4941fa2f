import { expect, test } from "bun:test";
import { viaProxy } from "../../src/service/egress/proxy";

test("calls go through fetch (and so through the proxy) only when a proxy is set for the scheme and NO_PROXY does not exempt the host", () => {
  expect(viaProxy("https://api.example.com/v1/x", {})).toBe(false);
  expect(viaProxy("https://api.example.com/v1/x", { HTTPS_PROXY: "http://proxy:3128" })).toBe(true);
  expect(viaProxy("https://api.example.com/v1/x", { https_proxy: "http://proxy:3128" })).toBe(true);
  expect(viaProxy("http://api.example.com/v1/x", { HTTPS_PROXY: "http://proxy:3128" })).toBe(false);
  expect(viaProxy("http://api.example.com/v1/x", { HTTP_PROXY: "http://proxy:3128" })).toBe(true);
  const proxied = { HTTPS_PROXY: "http://proxy:3128", NO_PROXY: "localhost, .internal,example.org:443" };
  expect(viaProxy("https://localhost:8443/v1/x", proxied)).toBe(false);
  expect(viaProxy("https://llm.internal/v1/x", proxied)).toBe(false);
  expect(viaProxy("https://api.example.org/v1/x", proxied)).toBe(false);
  expect(viaProxy("https://example.org.evil.com/v1/x", proxied)).toBe(true);
  expect(viaProxy("https://api.example.com/v1/x", { ...proxied, NO_PROXY: "*" })).toBe(false);
});
