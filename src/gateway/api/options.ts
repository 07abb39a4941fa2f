import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { listOptions, resetModelPrices, saveOption } from "../../service/options/admin";
import { Role } from "../../shared/constants";
import { mailLanguageOf } from "../../service/mail/language";
import { sendTestMail } from "../../service/mail/test-mail";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { bodyOf } from "./request";

/** Site options (root): list, save one, reset model ratios. */
export const optionRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .get("/api/option/", async ({ request }) => {
      await authenticate(ctx, request, Role.Root);
      return ok(listOptions(ctx));
    })
    .put("/api/option/", async ({ request }) => {
      await authenticate(ctx, request, Role.Root);
      await saveOption(ctx, await bodyOf(ctx, request));
      return ok(null);
    })
    .post("/api/option/test_mail", async ({ request }) => {
      const { user } = await authenticate(ctx, request, Role.Root);
      const body = await bodyOf(ctx, request);
      const language = mailLanguageOf(request.headers.get("accept-language"));
      const to = await sendTestMail(ctx, user, body.email, language);
      return ok(null, `test mail sent to ${to}`);
    })
    .post("/api/option/rest_model_ratio", async ({ request }) => {
      await authenticate(ctx, request, Role.Root);
      await resetModelPrices(ctx);
      return ok(null, "model ratios reset to defaults");
    });
