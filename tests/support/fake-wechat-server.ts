/** The token the gateway must send to the fake WeChat server. */
export const FAKE_WECHAT_TOKEN = "fake-wechat-server-token";

export interface FakeWeChatServer {
  url: string;
  /** A verification code the official account would send this WeChat user (valid 3 minutes). */
  codeFor(openId: string): string;
  /** Moves every code issued so far past its 3 minutes. */
  expireCodes(): void;
  stop(): Promise<void>;
}

const CODE_VALID_MS = 3 * 60_000;

/**
 * A loopback WeChat server: GET /api/wechat/user?code=… with `Authorization: <token>` (401 otherwise) answers
 * `{success:true, data:<openid>}` for a code it issued, once, within 3 minutes; else success:false.
 */
export function startFakeWeChatServer(): FakeWeChatServer {
  const codes = new Map<string, { openId: string; expiresAt: number }>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const { pathname, searchParams } = new URL(request.url);
      if (pathname !== "/api/wechat/user") return new Response("not found", { status: 404 });
      if (request.headers.get("authorization") !== FAKE_WECHAT_TOKEN)
        return Response.json({ success: false, message: "no permission" }, { status: 401 });
      const code = searchParams.get("code") ?? "";
      const issued = codes.get(code);
      codes.delete(code);
      if (!issued || issued.expiresAt <= Date.now())
        return Response.json({ success: false, message: "invalid or expired code" });
      return Response.json({ success: true, message: "", data: issued.openId });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    codeFor(openId) {
      const code = String(100000 + Math.floor(Math.random() * 900000));
      codes.set(code, { openId, expiresAt: Date.now() + CODE_VALID_MS });
      return code;
    },
    expireCodes() {
      for (const issued of codes.values()) issued.expiresAt = 0;
    },
    stop: () => server.stop(true),
  };
}
