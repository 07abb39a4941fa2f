import { expect } from "bun:test";

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

/** A console-like HTTP client: keeps the session cookie and sends New-Api-User like the console does. */
export class ApiClient {
  /** The session cookie's `session=…` pair. */
  cookie = "";
  /** Other cookies the server set (e.g. oauth_browser), sent back with the session cookie. */
  readonly jar = new Map<string, string>();
  /** Sent as `Authorization` when set: a system access token, for script-like clients. */
  authorization = "";
  userId: number | undefined;
  username = "";

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const all: Record<string, string> = { ...headers };
    const cookies = [this.cookie, ...[...this.jar].map(([name, value]) => `${name}=${value}`)].filter(Boolean);
    if (cookies.length > 0) all.cookie = cookies.join("; ");
    if (this.authorization && !("authorization" in all)) all.authorization = this.authorization;
    if (this.userId !== undefined && !("new-api-user" in all)) all["new-api-user"] = String(this.userId);
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      all["content-type"] ??= "application/json";
    }
    const response = await fetch(this.baseUrl + path, { method, headers: all, body: payload });
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(";")[0]!;
      const name = pair.slice(0, pair.indexOf("="));
      if (name === "session") this.cookie = pair.endsWith("=") ? "" : pair;
      else if (pair.endsWith("=")) this.jar.delete(name);
      else this.jar.set(name, pair.slice(name.length + 1));
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get = (path: string, headers?: Record<string, string>) => this.request("GET", path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request("POST", path, body ?? {}, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request("PUT", path, body ?? {}, headers);
  delete = (path: string, headers?: Record<string, string>) => this.request("DELETE", path, undefined, headers);

  /** A script-like client of the same user: `Authorization: <access token>` and New-Api-User, no cookie. */
  withToken(token: string): ApiClient {
    const script = new ApiClient(this.baseUrl);
    script.authorization = token;
    script.userId = this.userId;
    script.username = this.username;
    return script;
  }

  async login(username: string, password: string): Promise<Reply> {
    const reply = await this.post("/api/user/login", { username, password });
    if (reply.body?.success) {
      this.userId = reply.body.data.id;
      this.username = username;
    }
    return reply;
  }
}

/** The management API's refusal: `{success:false, message}` with this HTTP status. */
export function expectFailure(reply: Reply, status: number, message: string): void {
  expect({ status: reply.status, body: reply.body }).toEqual({ status, body: { success: false, message } });
}
