import { invalidRequest } from "../relay/errors";

/** A drawing submission as the relay bills and records it. */
export interface MjAction {
  /** The task table's action (spec: Drawing task actions). */
  action: string;
  /** The priced model, e.g. mj_imagine. */
  model: string;
  /** The earlier task this one acts on (its channel takes it), for actions on a task. */
  originId?: string;
}

/** The priced model of each action. */
export const MJ_MODELS: Record<string, string> = {
  IMAGINE: "mj_imagine",
  UPSCALE: "mj_upscale",
  VARIATION: "mj_variation",
  HIGH_VARIATION: "mj_high_variation",
  LOW_VARIATION: "mj_low_variation",
  REROLL: "mj_reroll",
  PAN: "mj_pan",
  ZOOM: "mj_zoom",
  CUSTOM_ZOOM: "mj_custom_zoom",
  INPAINT: "mj_inpaint",
  DESCRIBE: "mj_describe",
  BLEND: "mj_blend",
  SHORTEN: "mj_shorten",
  UPLOAD: "mj_upload",
  MODAL: "mj_modal",
  SWAP_FACE: "mj_swap_face",
};

/** Midjourney's button ids (customId) by prefix, most specific first, and the action each one is. */
const CUSTOM_IDS: [prefix: string, action: string][] = [
  ["MJ::JOB::upsample", "UPSCALE"],
  ["MJ::JOB::high_variation", "HIGH_VARIATION"],
  ["MJ::JOB::low_variation", "LOW_VARIATION"],
  ["MJ::JOB::variation", "VARIATION"],
  ["MJ::JOB::reroll", "REROLL"],
  ["MJ::JOB::pan_", "PAN"],
  ["MJ::Outpaint::", "ZOOM"],
  ["MJ::CustomZoom::", "CUSTOM_ZOOM"],
  ["MJ::Inpaint::", "INPAINT"],
];

/** The letters of a simple change ("<taskId> U1"): upscale, variation, reroll. */
const SIMPLE_CHANGES: Record<string, string> = { U: "UPSCALE", V: "VARIATION", R: "REROLL" };
const CHANGE_ACTIONS = new Set(["UPSCALE", "VARIATION", "REROLL"]);

const missing = (field: string) => invalidRequest(`${field} is required`);
const nonEmpty = (value: unknown) => typeof value === "string" && value.trim() !== "";
const textOf = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
const images = (value: unknown, least: number) =>
  Array.isArray(value) && value.length >= least && value.every((v) => typeof v === "string" && v !== "");

const made = (action: string, originId?: string): MjAction => ({ action, model: MJ_MODELS[action]!, originId });

/** Each submit route's body check and the action it is. */
const SUBMITS: Record<string, (body: Record<string, any>) => MjAction> = {
  imagine(b) {
    if (!nonEmpty(b.prompt)) throw missing("prompt");
    return made("IMAGINE");
  },
  change(b) {
    if (!nonEmpty(textOf(b.taskId))) throw missing("taskId");
    if (!CHANGE_ACTIONS.has(b.action)) throw invalidRequest("action must be UPSCALE, VARIATION or REROLL");
    if (b.action !== "REROLL" && !(Number.isInteger(b.index) && b.index >= 1 && b.index <= 4)) {
      throw invalidRequest("index must be 1 to 4");
    }
    return made(b.action, textOf(b.taskId));
  },
  "simple-change"(b) {
    const match = typeof b.content === "string" ? /^\s*(\S+)\s+([UVR])([1-4])?\s*$/.exec(b.content) : null;
    if (!match || (match[2] !== "R" && !match[3])) throw invalidRequest('content must be "<taskId> U1..U4|V1..V4|R"');
    return made(SIMPLE_CHANGES[match[2]!]!, match[1]);
  },
  describe(b) {
    if (!nonEmpty(b.base64)) throw missing("base64");
    return made("DESCRIBE");
  },
  blend(b) {
    if (!images(b.base64Array, 2)) throw invalidRequest("base64Array must hold 2 to 5 images");
    if (b.base64Array.length > 5) throw invalidRequest("base64Array must hold 2 to 5 images");
    return made("BLEND");
  },
  action(b) {
    if (!nonEmpty(textOf(b.taskId))) throw missing("taskId");
    if (!nonEmpty(b.customId)) throw missing("customId");
    const found = CUSTOM_IDS.find(([prefix]) => (b.customId as string).startsWith(prefix));
    if (!found) throw invalidRequest(`unknown action: ${String(b.customId).slice(0, 80)}`);
    return made(found[1], textOf(b.taskId));
  },
  modal(b) {
    if (!nonEmpty(textOf(b.taskId))) throw missing("taskId");
    return made("MODAL", textOf(b.taskId));
  },
  shorten(b) {
    if (!nonEmpty(b.prompt)) throw missing("prompt");
    return made("SHORTEN");
  },
  "upload-discord-images"(b) {
    if (!images(b.base64Array, 1)) throw missing("base64Array");
    return made("UPLOAD");
  },
};

/** The insight-face swap, on its own route. */
export function swapFaceAction(body: Record<string, any>): MjAction {
  if (!nonEmpty(body.sourceBase64)) throw missing("sourceBase64");
  if (!nonEmpty(body.targetBase64)) throw missing("targetBase64");
  return made("SWAP_FACE");
}

/** The submission at /mj/submit/<name>, checked; an unknown name or a body missing what it needs is refused. */
export function mjSubmitAction(name: string, body: Record<string, any>): MjAction {
  const check = Object.hasOwn(SUBMITS, name) ? SUBMITS[name] : undefined;
  if (!check) throw invalidRequest(`unknown action: ${name.slice(0, 80)}`);
  return check(body);
}
