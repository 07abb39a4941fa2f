import { Elysia } from "elysia";
import type { ServiceContext } from "../../../service/context";
import { RelayError } from "../../../service/relay/errors";
import { mjSubmitAction, swapFaceAction, type MjAction } from "../../../service/tasks/mj-actions";
import { notFound, prepareMjSubmission } from "../../../service/tasks/mj-submit";
import { ownDrawingTasks, drawingImageUrl } from "../../../service/tasks/lookup";
import { recordTask } from "../../../service/tasks/record";
import { mjTaskView } from "../../../service/tasks/views";
import type { DialectErrorFacts } from "../dialects/types";
import { newRequestId } from "../request-id";
import { relayErrorResponse } from "../respond";
import { providerFor } from "../providers/registry";
import { submitTask } from "./submit";
import { idsOf, jsonObjectBody, RAW_BODY, taskRoute, type TaskCallContext } from "./task-route";
import { callTaskUpstream } from "./upstream-call";
import { proxyImage } from "./image-proxy";
import { relayErrorLanguage } from "../../../service/relay/error-language";

/** midjourney-proxy's codes for our refusals: 4 a bad request, 3 not found, 30 saturated, 9 anything else. */
function mjCode(facts: DialectErrorFacts): number {
  if (/^\d+$/.test(facts.code)) return Number(facts.code);
  return facts.status === 400 ? 4 : facts.status === 404 ? 3 : facts.status === 429 ? 30 : 9;
}

/** The Midjourney routes' error shape {description, type, code} (compat §0.1). */
export const mjErrorShape = (facts: DialectErrorFacts) => ({
  description: facts.message,
  type: /^\d+$/.test(facts.code) ? facts.type : facts.code,
  code: mjCode(facts),
});

/** The relay key as midjourney-proxy clients send it: Authorization, or mj-api-secret when that is empty or "midjourney-proxy". */
export function mjAuthorization(request: Request): string | null {
  const authorization = request.headers.get("authorization");
  const bare = authorization?.replace(/^Bearer\s+/i, "").trim() ?? "";
  if (bare && bare !== "midjourney-proxy") return authorization;
  const secret = request.headers
    .get("mj-api-secret")
    ?.replace(/^Bearer\s+/i, "")
    .trim();
  return secret ? `Bearer ${secret}` : authorization;
}

const MODES = ["", "/fast", "/turbo", "/relax"];

/** The Midjourney-proxy relay on /mj/... and /{fast,turbo,relax}/mj/... (compat §1.3). */
export function mjRoutes(ctx: ServiceContext) {
  const route = (work: (call: TaskCallContext) => Promise<unknown>) =>
    taskRoute(ctx, mjErrorShape, mjAuthorization, work);

  const submit = (path: string, actionOf: (body: Record<string, any>) => MjAction) =>
    route(async (call) => {
      const body = await jsonObjectBody(call.request);
      const action = actionOf(body);
      const prepared = await prepareMjSubmission(ctx, call.caller, action, body);
      const taken = await submitTask({
        ctx,
        caller: call.caller,
        platform: "midjourney",
        model: action.model,
        path,
        body: JSON.stringify(prepared.body),
        channelId: prepared.origin?.channel_id,
        requestId: call.requestId,
        ip: call.ip,
        userAgent: call.request.headers.get("user-agent") ?? undefined,
        startedAt: call.startedAt,
      });
      const { submission } = taken;
      await recordTask(ctx, "midjourneys", {
        caller: call.caller,
        action: action.action,
        upstreamId: submission.id,
        channelId: taken.channel.row.id,
        quota: taken.quota,
        columns: {
          code: submission.code,
          prompt: typeof body.prompt === "string" ? body.prompt : "",
          description: submission.description,
          properties: JSON.stringify(prepared.notifyHook ? { notifyHook: prepared.notifyHook } : {}),
        },
      });
      await ctx.relay.book.durable();
      return submission.reply;
    });

  let app = new Elysia();
  for (const mode of MODES) {
    const base = `${mode}/mj`;
    app = app
      .post(
        `${base}/submit/:name`,
        (c) => submit(`${base}/submit/${c.params.name}`, (body) => mjSubmitAction(c.params.name, body))(c),
        RAW_BODY,
      )
      .post(`${base}/insight-face/swap`, submit(`${base}/insight-face/swap`, swapFaceAction), RAW_BODY)
      .get(`${base}/task/:id/fetch`, (c) =>
        route(async (call) => {
          const [row] = await ownDrawingTasks(ctx, call.caller.user.id, [c.params.id]);
          if (!row) throw notFound(c.params.id);
          return mjTaskView(ctx, row);
        })(c),
      )
      .post(
        `${base}/task/list-by-condition`,
        route(async (call) => {
          const ids = idsOf((await jsonObjectBody(call.request)).ids, 1000);
          return (await ownDrawingTasks(ctx, call.caller.user.id, ids)).map((row) => mjTaskView(ctx, row));
        }),
        RAW_BODY,
      )
      .get(`${base}/task/:id/image-seed`, (c) =>
        route(async (call) => {
          const [row] = await ownDrawingTasks(ctx, call.caller.user.id, [c.params.id]);
          const channel = row && ctx.relay.routes.channel(row.channel_id);
          if (!row || !channel) throw notFound(c.params.id);
          const seed = providerFor(channel.row.type).tasks?.imageSeed?.(channel.row, row.mj_id);
          if (!seed) throw notFound(c.params.id);
          const reply = await callTaskUpstream(ctx.options, seed, ctx.config.relayTimeoutMs);
          if (!reply.ok) throw new RelayError(502, reply.message, "upstream_unreachable", "upstream_error");
          return reply.json ?? {};
        })(c),
      );
  }
  return app.get("/mj/image/:id", async ({ params }) => {
    const requestId = newRequestId();
    try {
      const url = await drawingImageUrl(ctx, params.id);
      if (!url) throw notFound(params.id);
      return await proxyImage(ctx, url);
    } catch (error) {
      return relayErrorResponse(error, requestId, relayErrorLanguage(ctx), mjErrorShape);
    }
  });
}
