import type { ServiceContext } from "../../../service/context";
import { authenticateRelayKey, type RelayCaller } from "../../../service/relay/caller";
import { invalidRequest } from "../../../service/relay/errors";
import { clientIp } from "../../http/client-ip";
import type { DialectErrorFacts } from "../dialects/types";
import { newRequestId } from "../request-id";
import { relayErrorResponse } from "../respond";
import { relayErrorLanguage } from "../../../service/relay/error-language";

type Server = Parameters<typeof clientIp>[1];

/** One authenticated task call: who, from where, and its request's id and start. */
export interface TaskCallContext {
  request: Request;
  caller: RelayCaller;
  requestId: string;
  ip: string;
  startedAt: number;
}

/** A task route's answer: a JSON body (200) or a whole response. */
export type TaskAnswer = unknown;

/**
 * A task route: authenticates the relay key found by `authorization`, runs `work` and answers its JSON; every
 * failure becomes an error reply in the route family's `shape`.
 */
export function taskRoute(
  ctx: ServiceContext,
  shape: (facts: DialectErrorFacts) => unknown,
  authorization: (request: Request) => string | null,
  work: (call: TaskCallContext) => Promise<TaskAnswer>,
) {
  return async ({ request, server }: { request: Request; server: Server }) => {
    const requestId = newRequestId();
    const startedAt = Date.now();
    try {
      const ip = clientIp(request, server, ctx.config.trustProxy);
      const caller = await authenticateRelayKey(ctx, authorization(request), ip);
      const answer = await work({ request, caller, requestId, ip, startedAt });
      if (answer instanceof Response) return answer;
      return new Response(JSON.stringify(answer), {
        headers: { "content-type": "application/json", "x-tollgate-request-id": requestId },
      });
    } catch (error) {
      return relayErrorResponse(error, requestId, relayErrorLanguage(ctx), shape);
    }
  };
}

/** Route options leaving the body unread by the framework: the handler reads it, refusing bad JSON in its own shape. */
export const RAW_BODY = { parse: "none" } as const;

/** The request's JSON object body; anything else is refused. */
export async function jsonObjectBody(request: Request): Promise<Record<string, any>> {
  const body = await request.json().catch(() => undefined);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalidRequest("the body must be a JSON object");
  return body;
}

/** A list of task ids from a body's `ids` (at most `limit`, each a non-empty string). */
export function idsOf(value: unknown, limit: number): string[] {
  if (!Array.isArray(value) || value.length > limit || !value.every((id) => typeof id === "string" && id !== "")) {
    throw invalidRequest(`ids must be a list of up to ${limit} task ids`);
  }
  return value;
}
