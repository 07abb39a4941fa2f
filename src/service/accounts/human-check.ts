import type { ServiceContext } from "../context";
import { refuse } from "../errors";

export const HUMAN_CHECK_PENDING = "please retry in a few seconds, Turnstile is checking the user environment";
export const HUMAN_CHECK_FAILED = "human check failed, please refresh the page and retry";

/**
 * When TurnstileCheckEnabled, the caller's `turnstile` token must be confirmed by the verify address (Cloudflare's
 * siteverify, or TURNSTILE_VERIFY_URL) with TurnstileSecretKey; otherwise the call is refused before it changes
 * anything. Off: passes. Used by register, sign-in, email codes, password reset and WeChat sign-in.
 */
export async function verifyHumanCheck(ctx: ServiceContext, token: unknown, clientIp: string): Promise<void> {
  if (!ctx.options.bool("TurnstileCheckEnabled")) return;
  if (typeof token !== "string" || token.trim() === "") refuse(HUMAN_CHECK_PENDING);
  const form = new URLSearchParams({
    secret: ctx.options.raw("TurnstileSecretKey"),
    response: (token as string).trim(),
    remoteip: clientIp,
  });
  let passed = false;
  try {
    const reply = await fetch(ctx.config.turnstileVerifyUrl, {
      method: "POST",
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    passed = reply.ok && ((await reply.json()) as { success?: unknown }).success === true;
  } catch (error) {
    console.error(`[turnstile] verification failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!passed) refuse(HUMAN_CHECK_FAILED);
}
