import { refuse } from "../errors";
import type { CodeFlow } from "./code-flow";
import { FORM, fetchProviderJson, formBody } from "./remote";

/**
 * GitHub's web flow: github.com (or a GitHub Enterprise server: GitHubBaseUrl for the web, GitHubApiBaseUrl for
 * the API) trades the code for a token with the client secret, then names the user. The numeric id is kept.
 */
export const github: CodeFlow = {
  authorizeUrl(ctx, { state, redirectUri }) {
    const params = new URLSearchParams({ client_id: ctx.options.raw("GitHubClientId"), state, scope: "read:user" });
    if (redirectUri) params.set("redirect_uri", redirectUri);
    return `${ctx.options.raw("GitHubBaseUrl")}/login/oauth/authorize?${params}`;
  },
  async account(ctx, { code }) {
    const clientId = ctx.options.raw("GitHubClientId");
    const clientSecret = ctx.options.raw("GitHubClientSecret");
    if (!clientId || !clientSecret) refuse("GitHub sign-in is not configured: a client id and secret are required");
    const token = await fetchProviderJson(
      ctx,
      "GitHub",
      `${ctx.options.raw("GitHubBaseUrl")}/login/oauth/access_token`,
      {
        method: "POST",
        headers: FORM,
        body: formBody({ client_id: clientId, client_secret: clientSecret, code }),
      },
    );
    if (typeof token.access_token !== "string" || !token.access_token) {
      refuse("GitHub did not accept the sign-in: the code is wrong, used or expired, or the client secret is wrong");
    }
    const user = await fetchProviderJson(ctx, "GitHub", `${ctx.options.raw("GitHubApiBaseUrl")}/user`, {
      headers: { authorization: `Bearer ${token.access_token}`, accept: "application/vnd.github+json" },
    });
    const login = typeof user.login === "string" ? user.login : undefined;
    return {
      provider: "github",
      id: user.id === undefined || user.id === null ? "" : String(user.id),
      username: login,
      displayName: typeof user.name === "string" && user.name ? user.name : login,
    };
  },
};
