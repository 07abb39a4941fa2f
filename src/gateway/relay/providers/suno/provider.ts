import { RelayError } from "../../../../shared/relay-error";
import { channelBaseUrl, firstKey } from "../channel";
import type { Provider, ProviderChannel, TaskFamily, TaskReport, TaskSubmission } from "../types";

const headers = (channel: ProviderChannel) => ({
  authorization: `Bearer ${firstKey(channel)}`,
  "content-type": "application/json",
});
const text = (value: unknown) => (typeof value === "string" ? value : "");
const seconds = (value: unknown) => (typeof value === "number" && value > 0 ? Math.floor(value) : 0);

/** The Suno API's replies: {code: "success", message, data}. */
function submitted(status: number, reply: unknown): TaskSubmission {
  const r = (reply ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const description = text(r.message) || `upstream answered ${status}`;
  const ok = status >= 200 && status < 300 && r.code === "success";
  if (ok && typeof r.data === "string" && r.data) {
    return { taken: true, id: r.data, code: 1, description, reply: r as Record<string, unknown> };
  }
  return { taken: false, code: 0, description, busy: status === 429 };
}

function reportOf(task: any): TaskReport | undefined {
  if (!task || typeof task.task_id !== "string") return undefined;
  return {
    id: task.task_id,
    columns: {
      status: text(task.status),
      progress: text(task.progress),
      fail_reason: text(task.fail_reason),
      start_time: seconds(task.start_time),
      finish_time: seconds(task.finish_time),
      data: JSON.stringify(task.data ?? null),
    },
  };
}

const sunoTasks: TaskFamily = {
  platform: "suno",
  submit: (channel, path, body) => ({ url: `${channelBaseUrl(channel)}${path}`, headers: headers(channel), body }),
  submitted,
  fetch: (channel, ids, action) => ({
    url: `${channelBaseUrl(channel)}/suno/fetch`,
    headers: headers(channel),
    body: JSON.stringify({ ids, action }),
  }),
  reports: (reply) => {
    const data = (reply as { data?: unknown } | undefined)?.data;
    return Array.isArray(data) ? data.map(reportOf).filter((r) => r !== undefined) : [];
  },
};

/** Suno API servers (type 36), reached only through the /suno relay. */
export const sunoProvider: Provider = {
  types: [36],
  endpoints: new Set(),
  request() {
    throw new RelayError(
      400,
      "Suno channels serve only the /suno routes",
      "unsupported_endpoint",
      "invalid_request_error",
    );
  },
  errorOf: (reply: any) => ({ message: typeof reply?.message === "string" ? reply.message : undefined }),
  tasks: sunoTasks,
};
