import type { TaskRow } from "../../db/queries/task-rows";
import type { ServiceContext } from "../context";
import { propertiesOf } from "./record";

const ms = (seconds: number) => seconds * 1000;

function parsed(text: string, fallback: unknown): unknown {
  try {
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The image address a client is given: the upstream's, or with MjForwardUrlEnabled our own /mj/image/<id>
 * under ServerAddress (the upstream's address stays hidden and the image comes through this server).
 */
export function clientImageUrl(ctx: ServiceContext, row: { image_url: string; mj_id: string }): string {
  if (!row.image_url || !ctx.options.bool("MjForwardUrlEnabled")) return row.image_url;
  return `${ctx.options.raw("ServerAddress").replace(/\/+$/, "")}/mj/image/${encodeURIComponent(row.mj_id)}`;
}

/** A drawing task as midjourney-proxy clients read it (times in milliseconds; the notify hook is ours). */
export function mjTaskView(ctx: ServiceContext, row: TaskRow<"midjourneys">) {
  const { notifyHook: _ours, ...properties } = propertiesOf(row);
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: ms(row.submit_time),
    startTime: ms(row.start_time),
    finishTime: ms(row.finish_time),
    imageUrl: clientImageUrl(ctx, row),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parsed(row.buttons, []),
    properties,
  };
}

/** An async task as Suno API clients read it. */
export function sunoTaskView(row: TaskRow<"tasks">) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data: parsed(row.data, null),
  };
}
