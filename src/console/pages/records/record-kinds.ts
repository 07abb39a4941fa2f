import { query } from "../../api";
import { fromLocalInput, startOfToday, nowSeconds, defaultRange } from "../log/time";

/** What both record screens show of a row (spec §3 'Drawing task', 'Async task'); channel_id only for admins. */
export interface TaskRecord {
  id: number;
  submit_time: number;
  finish_time: number;
  channel_id?: number;
  action: string;
  status: string;
  progress: string;
  fail_reason: string;
}

export interface DrawingRecord extends TaskRecord {
  mj_id: string;
  code: number;
  image_url: string;
  prompt: string;
  prompt_en: string;
}

export interface AsyncRecord extends TaskRecord {
  task_id: string;
  platform: string;
}

/** The filter form: channel id (admins), the task id, platform (async tasks) and the time range. */
export type RecordFilter = Record<"channel_id" | "task" | "platform" | "start" | "end", string>;

export interface RecordKind {
  /** /api/mj or /api/task; admins list "<path>/", others "<path>/self". */
  path: string;
  /** The query name of the task id filter. */
  idParam: "mj_id" | "task_id";
  /** Async tasks filter by platform too. */
  hasPlatform: boolean;
  /** Unix seconds of the default start: drawing tasks 30 days back, async tasks the start of today (spec §9). */
  defaultStart: () => number;
  /** The platform-status switch that enables the screen. */
  switchName: "enable_drawing" | "enable_task";
}

export const DRAWING: RecordKind = {
  path: "/api/mj",
  idParam: "mj_id",
  hasPlatform: false,
  defaultStart: () => nowSeconds() - 30 * 86_400,
  switchName: "enable_drawing",
};

export const ASYNC_TASKS: RecordKind = {
  path: "/api/task",
  idParam: "task_id",
  hasPlatform: true,
  defaultStart: startOfToday,
  switchName: "enable_task",
};

export const initialRecordFilter = (kind: RecordKind) => (): RecordFilter => ({
  channel_id: "",
  task: "",
  platform: "",
  ...defaultRange(kind.defaultStart()),
});

export function recordListUrl(kind: RecordKind, filter: RecordFilter, admin: boolean, p: number, size: number): string {
  const params = {
    p,
    page_size: size,
    [kind.idParam]: filter.task.trim(),
    platform: kind.hasPlatform ? filter.platform.trim() : undefined,
    channel_id: admin ? filter.channel_id.trim() : undefined,
    start_timestamp: fromLocalInput(filter.start),
    end_timestamp: fromLocalInput(filter.end),
  };
  return `${kind.path}/${admin ? "" : "self"}${query(params)}`;
}

/** A task that took longer than this many seconds is shown red (spec §4). */
export const SLOW_SECONDS = 60;

/** Seconds from submission to finish; undefined while unfinished. */
export const durationOf = (row: TaskRecord): number | undefined =>
  row.finish_time > 0 && row.submit_time > 0 ? row.finish_time - row.submit_time : undefined;
