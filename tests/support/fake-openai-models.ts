/**
 * A tiny OpenAI-dialect upstream on loopback: GET /v1/models and the dashboard billing calls
 * (/v1/dashboard/billing/subscription, /usage). It accepts one key and records what it was asked.
 */
export interface FakeOpenAiModels {
  url: string;
  key: string;
  models: string[];
  hardLimitUsd: number;
  /** Cents, as the billing usage call reports it. */
  totalUsageCents: number;
  /** When set, every call answers this HTTP status with an error that echoes the key. */
  failWith: number;
  requests: { path: string; authorization: string | null }[];
  stop(): void;
}

export function startFakeOpenAiModels(key = "sk-fake-upstream-key-0001"): FakeOpenAiModels {
  const fake: FakeOpenAiModels = {
    url: "",
    key,
    models: ["gpt-4o", "gpt-4o-mini", "text-embedding-3-small"],
    hardLimitUsd: 100,
    totalUsageCents: 2500,
    failWith: 0,
    requests: [],
    stop: () => server.stop(true),
  };
  const error = (status: number, message: string) =>
    Response.json({ error: { message, type: "invalid_request_error" } }, { status });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const { pathname } = new URL(request.url);
      const authorization = request.headers.get("authorization");
      fake.requests.push({ path: pathname, authorization });
      if (fake.failWith) return error(fake.failWith, `upstream trouble for key ${authorization}`);
      if (authorization !== `Bearer ${fake.key}`) return error(401, `Incorrect API key provided: ${authorization}`);
      if (pathname === "/v1/models") {
        return Response.json({
          object: "list",
          data: fake.models.map((id) => ({ id, object: "model", owned_by: "fake" })),
        });
      }
      if (pathname === "/v1/dashboard/billing/subscription")
        return Response.json({ hard_limit_usd: fake.hardLimitUsd });
      if (pathname === "/v1/dashboard/billing/usage") return Response.json({ total_usage: fake.totalUsageCents });
      return error(404, "not found");
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}
