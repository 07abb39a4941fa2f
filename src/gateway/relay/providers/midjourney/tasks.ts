import { channelBaseUrl, firstKey } from "../channel";
import type { ProviderChannel, TaskFamily, TaskReport, TaskSubmission } from "../types";

/** midjourney-proxy's submit codes that mean the task was taken: submitted, already existing, queued. */
const TAKEN_CODES = new Set([1, 21, 22]);
/** Its code for a full queue. */
const QUEUE_FULL = 23;
const QUEUE_FULL_WORDS = /queue.*full|队列已满/i;

const headers = (channel: ProviderChannel) => ({
  "mj-api-secret": firstKey(channel),
  "content-type": "application/json",
});

/** Milliseconds (midjourney-proxy's times) as seconds; 0 stays 0. */
const seconds = (ms: unknown) => (typeof ms === "number" && ms > 0 ? Math.floor(ms / 1000) : 0);
const text = (value: unknown) => (typeof value === "string" ? value : "");

function submitted(status: number, reply: unknown): TaskSubmission {
  const r = (reply ?? {}) as { code?: unknown; description?: unknown; result?: unknown };
  const code = typeof r.code === "number" ? r.code : 0;
  const description = text(r.description) || `upstream answered ${status}`;
  const id = typeof r.result === "string" || typeof r.result === "number" ? String(r.result) : "";
  if (status >= 200 && status < 300 && TAKEN_CODES.has(code) && id) {
    return { taken: true, id, code, description, reply: r as Record<string, unknown> };
  }
  return {
    taken: false,
    code,
    description,
    busy: status === 429 || code === QUEUE_FULL || QUEUE_FULL_WORDS.test(description),
  };
}

/** One midjourney-proxy task in the drawing table's columns. */
function reportOf(task: any): TaskReport | undefined {
  if (!task || (typeof task.id !== "string" && typeof task.id !== "number")) return undefined;
  const columns: Record<string, string | number> = {
    status: text(task.status),
    progress: text(task.progress),
    image_url: text(task.imageUrl),
    fail_reason: text(task.failReason),
    start_time: seconds(task.startTime),
    finish_time: seconds(task.finishTime),
  };
  if (typeof task.promptEn === "string") columns.prompt_en = task.promptEn;
  if (typeof task.description === "string") columns.description = task.description;
  if (Array.isArray(task.buttons)) columns.buttons = JSON.stringify(task.buttons);
  return { id: String(task.id), columns };
}

/** midjourney-proxy: submissions under <base>/mj/submit/... (or <base>/<mode>/mj/...), tasks read by id list. */
export const midjourneyTasks: TaskFamily = {
  platform: "midjourney",
  submit: (channel, path, body) => ({ url: `${channelBaseUrl(channel)}${path}`, headers: headers(channel), body }),
  submitted,
  fetch: (channel, ids) => ({
    url: `${channelBaseUrl(channel)}/mj/task/list-by-condition`,
    headers: headers(channel),
    body: JSON.stringify({ ids }),
  }),
  reports: (reply) => (Array.isArray(reply) ? reply.map(reportOf).filter((r) => r !== undefined) : []),
  imageSeed: (channel, id) => ({
    method: "GET",
    url: `${channelBaseUrl(channel)}/mj/task/${encodeURIComponent(id)}/image-seed`,
    headers: headers(channel),
  }),
};
