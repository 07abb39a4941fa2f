import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { INVALID_STATE } from "../../src/service/oauth/state";
import { ALREADY_BOUND, REGISTRATION_CLOSED } from "../../src/service/oauth/sign-in";
import { LAST_SIGN_IN_WAY } from "../../src/service/oauth/unbind";
import { type ApiClient, expectFailure } from "../support/client";
import { DIALECTS } from "../support/databases";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, type FakeOAuth, startFakeOAuth } from "../support/fake-oauth";
import { type TestServer, uniqueName, useTestServer } from "../support/server";

/** A signed-in console client of a user made for the test (a fresh client when `signedOut`). */
async function newUser(s: TestServer): Promise<ApiClient> {
  return s.newUser(uniqueName());
}

/** The provider's answer to the browser: the code and state it sends back to <ServerAddress>/oauth/<provider>. */
async function authorizeAt(client: ApiClient, provider: string, aff = "") {
  const start = await client.get(`/api/oauth/${provider}/start?aff=${aff}`);
  expect(start.body.success).toBe(true);
  const back = await fetch(start.body.data, { redirect: "manual" });
  expect(back.status).toBe(302);
  const location = new URL(back.headers.get("location")!);
  return {
    path: location.pathname,
    code: location.searchParams.get("code")!,
    state: location.searchParams.get("state")!,
  };
}

const callback = (client: ApiClient, provider: string, { code, state }: { code: string; state: string }) =>
  client.get(`/api/oauth/${provider}?code=${code}&state=${state}`);

async function userCount(s: TestServer): Promise<number> {
  return (await s.root.get("/api/user/?p=1&page_size=10")).body.data.total;
}

describe.each(DIALECTS)("third-party sign-in on %s", (dialect) => {
  const s = useTestServer(dialect);
  let gh: FakeOAuth;
  let linuxdo: FakeOAuth;
  let oidc: FakeOAuth;

  beforeAll(async () => {
    gh = await startFakeOAuth("github", { id: 4242, login: "octo", name: "Octo Cat" });
    linuxdo = await startFakeOAuth("linuxdo", { id: 77, login: "ldfan", trust_level: 2 });
    oidc = await startFakeOAuth("oidc", { id: "sub-1", login: "oidcuser", name: "Oidc User" });
    const o = s.ctx.options;
    await o.set("ServerAddress", s.url);
    await o.set("GitHubOAuthEnabled", true);
    await o.set("GitHubClientId", FAKE_CLIENT_ID);
    await o.set("GitHubClientSecret", FAKE_CLIENT_SECRET);
    await o.set("GitHubBaseUrl", gh.url);
    await o.set("GitHubApiBaseUrl", `${gh.url}/api/v3`);
    await o.set("LinuxDOOAuthEnabled", true);
    await o.set("LinuxDOClientId", FAKE_CLIENT_ID);
    await o.set("LinuxDOClientSecret", FAKE_CLIENT_SECRET);
    await o.set("LinuxDOAuthorizeEndpoint", `${linuxdo.url}/oauth2/authorize`);
    await o.set("LinuxDOTokenEndpoint", `${linuxdo.url}/oauth2/token`);
    await o.set("LinuxDOUserEndpoint", `${linuxdo.url}/api/user`);
    await o.set("OIDCEnabled", true);
    await o.set("OIDCClientId", FAKE_CLIENT_ID);
    await o.set("OIDCClientSecret", FAKE_CLIENT_SECRET);
    await o.set("OIDCWellKnown", `${oidc.url}/.well-known/openid-configuration`);
  });
  afterAll(async () => {
    await gh.stop();
    await linuxdo.stop();
    await oidc.stop();
  });

  test("GET /api/oauth/state answers a state string and ties it to this browser with a cookie", async () => {
    const c = s.client();
    const reply = await c.get("/api/oauth/state?aff=ABCD");
    expect(reply.body.success).toBe(true);
    expect(reply.body.data).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(c.jar.get("oauth_browser")).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  test("GitHub sign-in (Enterprise base addresses) creates the user with the invite code honoured, then signs in", async () => {
    const inviter = await newUser(s);
    const aff = (await inviter.get("/api/user/aff")).body.data;
    const c = s.client();
    const returned = await authorizeAt(c, "github", aff);
    expect(returned.path).toBe("/oauth/github");
    const reply = await callback(c, "github", returned);
    expect(reply.body).toMatchObject({ success: true, message: "login succeeded", data: { username: "octo" } });
    c.userId = reply.body.data.id;
    const self = (await c.get("/api/user/self")).body.data;
    expect(self).toMatchObject({ github_id: "4242", display_name: "Octo Cat", inviter_id: inviter.userId });
    // Signing in again finds the same user.
    const again = s.client();
    const second = await callback(again, "github", await authorizeAt(again, "github"));
    expect(second.body.data.id).toBe(c.userId!);
  });

  test("a provider login that is too long or taken, or an unseen character in the name, still makes a user", async () => {
    const made = async (account: FakeOAuth["account"]) => {
      gh.account = account;
      const c = s.client();
      const reply = await callback(c, "github", await authorizeAt(c, "github"));
      expect(reply.body.success).toBe(true);
      return reply.body.data as { username: string; display_name: string };
    };
    expect((await made({ id: 7001, login: "a-very-long-github-login" })).username).toMatch(/^github_[A-Za-z0-9]{5}$/);
    expect((await made({ id: 7002, login: "octo" })).username).toMatch(/^github_[A-Za-z0-9]{5}$/);
    expect(await made({ id: 7003, login: "zw", name: "Zero\u200bWidth" })).toMatchObject({
      username: "zw",
      display_name: "zw",
    });
  });

  test("a replayed callback, a forged state and another browser's state are refused; nothing changes", async () => {
    gh.account = { id: 5001, login: "replayer" };
    const before = await userCount(s);
    const c = s.client();
    const returned = await authorizeAt(c, "github");
    expectFailure(
      await callback(c, "github", { ...returned, state: "forgedforgedforgedforgedforged12" }),
      403,
      INVALID_STATE,
    );
    const thief = s.client();
    await thief.get("/api/oauth/state");
    expectFailure(await callback(thief, "github", returned), 403, INVALID_STATE);
    // The state was burnt by the thief's try: the rightful browser must start again.
    expectFailure(await callback(c, "github", returned), 403, INVALID_STATE);
    const fresh = await authorizeAt(c, "github");
    expect((await callback(c, "github", fresh)).body.success).toBe(true);
    expectFailure(await callback(c, "github", fresh), 403, INVALID_STATE);
    expect(await userCount(s)).toBe(before + 1);
  });

  test("an expired code, a wrong client secret and closed registration are refused; no user is made", async () => {
    gh.account = { id: 5002, login: "latecomer" };
    const before = await userCount(s);
    const c = s.client();
    const late = await authorizeAt(c, "github");
    gh.expireCodes();
    const expired = await callback(c, "github", late);
    expect(expired.body.success).toBe(false);
    expect(expired.body.message).toContain("GitHub did not accept the sign-in");
    await s.ctx.options.set("GitHubClientSecret", "wrong-secret");
    const wrongSecret = await callback(c, "github", await authorizeAt(c, "github"));
    expect(wrongSecret.body.success).toBe(false);
    expect(gh.refusals.at(-1)).toBe("wrong client id or secret");
    await s.ctx.options.set("GitHubClientSecret", FAKE_CLIENT_SECRET);
    await s.ctx.options.set("RegisterEnabled", false);
    expectFailure(await callback(c, "github", await authorizeAt(c, "github")), 200, REGISTRATION_CLOSED);
    await s.ctx.options.set("RegisterEnabled", true);
    await s.ctx.options.set("GitHubOAuthEnabled", false);
    const off = await c.get("/api/oauth/github/start");
    expectFailure(off, 200, "sign-in with GitHub is not enabled by the administrator");
    await s.ctx.options.set("GitHubOAuthEnabled", true);
    expect(await userCount(s)).toBe(before);
  });

  test("a signed-in user binds GitHub; an account bound elsewhere is refused; unbinding keeps the last way in", async () => {
    gh.account = { id: 6001, login: "binder" };
    const owner = await newUser(s);
    const bound = await callback(owner, "github", await authorizeAt(owner, "github"));
    expect(bound.body).toEqual({ success: true, message: "bound", data: null });
    expect((await owner.get("/api/user/self")).body.data.github_id).toBe("6001");
    const other = await newUser(s);
    expectFailure(await callback(other, "github", await authorizeAt(other, "github")), 200, ALREADY_BOUND);
    expect((await other.get("/api/user/self")).body.data.github_id).toBe("");
    // A state issued to the owner does not bind to whoever holds the callback link.
    const ownersLink = await authorizeAt(owner, "github");
    other.jar.set("oauth_browser", owner.jar.get("oauth_browser")!);
    expectFailure(await callback(other, "github", ownersLink), 403, INVALID_STATE);
    // The owner has a password too: GitHub may go.
    expect((await owner.delete("/api/user/oauth/bindings/github")).body).toMatchObject({ success: true });
    expect((await owner.get("/api/user/self")).body.data.github_id).toBe("");
    // A user made by GitHub sign-in has no password: GitHub is its only way in.
    gh.account = { id: 6002, login: "onlygh" };
    const made = s.client();
    const signedIn = await callback(made, "github", await authorizeAt(made, "github"));
    made.userId = signedIn.body.data.id;
    expectFailure(await made.delete("/api/user/oauth/bindings/github"), 200, LAST_SIGN_IN_WAY);
    expect((await made.get("/api/user/self")).body.data.github_id).toBe("6002");
    expect((await made.login("onlygh", "")).body.success).toBe(false);
    // Once it sets a password (no current one needed for its first), GitHub can be unbound.
    expect((await made.put("/api/user/self", { password: "newpass123" })).body.success).toBe(true);
    await made.login("onlygh", "newpass123");
    expect((await made.delete("/api/user/oauth/bindings/github")).body.success).toBe(true);
  });

  test("the dialect's bare GET /api/oauth/state works for GitHub: a signed-in caller's state binds", async () => {
    gh.account = { id: 6100, login: "bare" };
    const owner = await newUser(s);
    const state = (await owner.get("/api/oauth/state")).body.data;
    const authorize = `${gh.url}/login/oauth/authorize?${new URLSearchParams({
      client_id: FAKE_CLIENT_ID,
      state,
      redirect_uri: `${s.url}/oauth/github`,
    })}`;
    const back = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location")!);
    const code = back.searchParams.get("code")!;
    expect((await callback(owner, "github", { code, state: back.searchParams.get("state")! })).body.message).toBe(
      "bound",
    );
    expect((await owner.get("/api/user/self")).body.data.github_id).toBe("6100");
  });

  test("LinuxDO: client credentials by HTTP Basic, the minimum trust level, then the account signs in", async () => {
    await s.ctx.options.set("LinuxDOMinimumTrustLevel", 3);
    const before = await userCount(s);
    const c = s.client();
    expectFailure(
      await callback(c, "linuxdo", await authorizeAt(c, "linuxdo")),
      200,
      "this site needs LinuxDO trust level 3 or higher; yours is 2",
    );
    expect(await userCount(s)).toBe(before);
    await s.ctx.options.set("LinuxDOMinimumTrustLevel", 2);
    const ok = await callback(c, "linuxdo", await authorizeAt(c, "linuxdo"));
    expect(ok.body).toMatchObject({ success: true, data: { username: "ldfan" } });
    c.userId = ok.body.data.id;
    expect((await c.get("/api/user/self")).body.data.linux_do_id).toBe("77");
    await s.ctx.options.set("LinuxDOClientSecret", "wrong-secret");
    const refused = await callback(c, "linuxdo", await authorizeAt(c, "linuxdo"));
    expect(refused.body).toEqual({ success: false, message: "LinuxDO refused the sign-in (HTTP 401)" });
    await s.ctx.options.set("LinuxDOClientSecret", FAKE_CLIENT_SECRET);
  });

  test("OpenID Connect: discovery, PKCE S256 and a checked id_token sign the subject in", async () => {
    const c = s.client();
    const returned = await authorizeAt(c, "oidc");
    expect(returned.path).toBe("/oauth/oidc");
    const reply = await callback(c, "oidc", returned);
    expect(reply.body).toMatchObject({ success: true, data: { username: "oidcuser" } });
    c.userId = reply.body.data.id;
    expect((await c.get("/api/user/self")).body.data.oidc_id).toBe("sub-1");
  });

  test("OpenID Connect refuses an id_token the provider did not sign and a state without a PKCE verifier", async () => {
    oidc.account = { id: "sub-2", login: "impostor" };
    const before = await userCount(s);
    const c = s.client();
    oidc.signWithForeignKey = true;
    expectFailure(
      await callback(c, "oidc", await authorizeAt(c, "oidc")),
      200,
      "the OpenID provider's id_token is not valid",
    );
    oidc.signWithForeignKey = false;
    const plain = (await c.get("/api/oauth/state")).body.data;
    const returned = await authorizeAt(c, "oidc");
    expectFailure(await callback(c, "oidc", { code: returned.code, state: plain }), 403, INVALID_STATE);
    expect(await userCount(s)).toBe(before);
  });
});
