import { Elysia } from "elysia";
import type { Server } from "bun";
import { bindEmail } from "../../service/accounts/email-bind";
import { confirmPasswordReset, sendPasswordReset } from "../../service/accounts/password-reset";
import { type MailRequest, sendVerificationCode } from "../../service/accounts/verification";
import type { ServiceContext } from "../../service/context";
import { mailLanguageOf } from "../../service/mail/language";
import { clientIp } from "../http/client-ip";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { limitPerAddress } from "./rate-limit";
import { bodyOf } from "./request";

type Query = Record<string, string | undefined>;

/** Email codes, password reset by mail, and binding an email to one's account. */
export const emailRoutes = (ctx: ServiceContext) => {
  const mailRequest = (request: Request, server: Server<unknown> | null, query: Query): MailRequest => ({
    clientIp: clientIp(request, server, ctx.config.trustProxy),
    language: mailLanguageOf(request.headers.get("accept-language")),
    turnstile: query.turnstile,
  });
  return (
    new Elysia()
      .get("/api/verification", async ({ request, server, query }) => {
        await sendVerificationCode(ctx, query.email, mailRequest(request, server, query));
        return ok(null, "verification code sent, please check your mailbox");
      })
      .get("/api/reset_password", async ({ request, server, query }) => {
        await sendPasswordReset(ctx, query.email, mailRequest(request, server, query));
        return ok(null, "if an account uses this address, a reset link was sent to it");
      })
      .post("/api/user/reset", async ({ request, server }) => {
        await limitPerAddress(ctx, "login", request, server);
        return ok(await confirmPasswordReset(ctx, await bodyOf(ctx, request)), "password reset");
      })
      // The spec's call is GET with the query; the dialect's clients POST {email, code}.
      .get("/api/oauth/email/bind", async ({ request, query }) => {
        const { user } = await authenticate(ctx, request);
        await bindEmail(ctx, user, query);
        return ok(null, "email bound");
      })
      .post("/api/oauth/email/bind", async ({ request }) => {
        const { user } = await authenticate(ctx, request);
        await bindEmail(ctx, user, await bodyOf(ctx, request));
        return ok(null, "email bound");
      })
  );
};
