import { refuse } from "../errors";
import type { CodeFlow } from "./code-flow";
import { FORM, fetchProviderJson, formBody, NO_SERVER_ADDRESS } from "./remote";

/**
 * LinuxDO Connect (endpoints configurable): the code is traded with HTTP Basic client credentials, and an account
 * below LinuxDOMinimumTrustLevel, inactive or silenced, is refused.
 */
export const linuxdo: CodeFlow = {
  authorizeUrl(ctx, { state, redirectUri }) {
    const params = new URLSearchParams({
      response_type: "code",
      client_id: ctx.options.raw("LinuxDOClientId"),
      state,
      redirect_uri: redirectUri,
    });
    return `${ctx.options.raw("LinuxDOAuthorizeEndpoint")}?${params}`;
  },
  async account(ctx, { code, redirectUri }) {
    const clientId = ctx.options.raw("LinuxDOClientId");
    const clientSecret = ctx.options.raw("LinuxDOClientSecret");
    if (!clientId || !clientSecret) refuse("LinuxDO sign-in is not configured: a client id and secret are required");
    if (!redirectUri) refuse(NO_SERVER_ADDRESS);
    const token = await fetchProviderJson(ctx, "LinuxDO", ctx.options.raw("LinuxDOTokenEndpoint"), {
      method: "POST",
      headers: { ...FORM, authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
      body: formBody({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
    });
    if (typeof token.access_token !== "string" || !token.access_token) {
      refuse("LinuxDO did not accept the sign-in: the code is wrong, used or expired");
    }
    const user = await fetchProviderJson(ctx, "LinuxDO", ctx.options.raw("LinuxDOUserEndpoint"), {
      headers: { authorization: `Bearer ${token.access_token}`, accept: "application/json" },
    });
    if (user.active === false || user.silenced === true) refuse("this LinuxDO account is not active");
    const level = Number(user.trust_level ?? 0);
    const minimum = ctx.options.num("LinuxDOMinimumTrustLevel");
    if (!(level >= minimum)) refuse(`this site needs LinuxDO trust level ${minimum} or higher; yours is ${level}`);
    const username = typeof user.username === "string" ? user.username : undefined;
    return {
      provider: "linuxdo",
      id: user.id === undefined || user.id === null ? "" : String(user.id),
      username,
      displayName: typeof user.name === "string" && user.name ? user.name : username,
    };
  },
};
