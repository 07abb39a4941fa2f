import { Elysia } from "elysia";
import type { ServiceContext } from "../../../service/context";
import { notFound } from "../../../service/tasks/mj-submit";
import { ownTasks } from "../../../service/tasks/lookup";
import { recordTask } from "../../../service/tasks/record";
import { sunoSubmitAction } from "../../../service/tasks/suno-actions";
import { sunoTaskView } from "../../../service/tasks/views";
import type { DialectErrorFacts } from "../dialects/types";
import { submitTask } from "./submit";
import { idsOf, jsonObjectBody, RAW_BODY, taskRoute, type TaskCallContext } from "./task-route";

/** The task routes' error shape {code, message, data} (compat §0.1). */
const sunoErrorShape = (facts: DialectErrorFacts) => ({ code: facts.code, message: facts.message, data: null });

const success = (data: unknown) => ({ code: "success", message: "", data });

/** The Suno relay: POST /suno/submit/{music|lyrics}, POST /suno/fetch, GET /suno/fetch/{id} (compat §1.3). */
export function sunoRoutes(ctx: ServiceContext) {
  const route = (work: (call: TaskCallContext) => Promise<unknown>) =>
    taskRoute(ctx, sunoErrorShape, (request) => request.headers.get("authorization"), work);
  return new Elysia()
    .post(
      "/suno/submit/:name",
      (c) =>
        route(async (call) => {
          const body = await jsonObjectBody(call.request);
          const action = sunoSubmitAction(c.params.name, body);
          const taken = await submitTask({
            ctx,
            caller: call.caller,
            platform: "suno",
            model: action.model,
            path: `/suno/submit/${c.params.name}`,
            body: JSON.stringify(body),
            requestId: call.requestId,
            ip: call.ip,
            userAgent: call.request.headers.get("user-agent") ?? undefined,
            startedAt: call.startedAt,
          });
          await recordTask(ctx, "tasks", {
            caller: call.caller,
            action: action.action,
            upstreamId: taken.submission.id,
            channelId: taken.channel.row.id,
            quota: taken.quota,
            columns: { platform: "suno", properties: JSON.stringify({ prompt: body.prompt ?? "" }) },
          });
          await ctx.relay.book.durable();
          return success(taken.submission.id);
        })(c),
      RAW_BODY,
    )
    .post(
      "/suno/fetch",
      route(async (call) => {
        const ids = idsOf((await jsonObjectBody(call.request)).ids, 1000);
        return success((await ownTasks(ctx, "tasks", call.caller.user.id, ids)).map(sunoTaskView));
      }),
      RAW_BODY,
    )
    .get("/suno/fetch/:id", (c) =>
      route(async (call) => {
        const [row] = await ownTasks(ctx, "tasks", call.caller.user.id, [c.params.id]);
        if (!row) throw notFound(c.params.id);
        return success(sunoTaskView(row));
      })(c),
    );
}
