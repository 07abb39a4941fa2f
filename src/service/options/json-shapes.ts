/** What a JSON-valued option must hold, so that pricing, groups and the console can read it as they expect. */
export type JsonShape = "ratio-map" | "ratio-map-map" | "text-map" | "text-list" | "object-list" | "limit-pair-map";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isRatio = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isRatioMap = (v: unknown) => isRecord(v) && Object.values(v).every(isRatio);
const isCount = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

const SHAPES: Record<JsonShape, { fits: (v: unknown) => boolean; description: string }> = {
  "ratio-map": { fits: isRatioMap, description: "a JSON object of non-negative numbers" },
  "ratio-map-map": {
    fits: (v) => isRecord(v) && Object.values(v).every(isRatioMap),
    description: "a JSON object of JSON objects of non-negative numbers",
  },
  "text-map": {
    fits: (v) => isRecord(v) && Object.values(v).every((s) => typeof s === "string"),
    description: "a JSON object of strings",
  },
  "text-list": {
    fits: (v) => Array.isArray(v) && v.every((s) => typeof s === "string" && s !== ""),
    description: "a JSON array of non-empty strings",
  },
  "limit-pair-map": {
    fits: (v) => isRecord(v) && Object.values(v).every((p) => Array.isArray(p) && p.length === 2 && p.every(isCount)),
    description: 'a JSON object of pairs of whole numbers ≥ 0, e.g. {"vip": [60, 100000]}',
  },
  "object-list": { fits: (v) => Array.isArray(v) && v.every(isRecord), description: "a JSON array of objects" },
};

/** Why a parsed value does not have the shape, or undefined when it does. */
export function shapeMismatch(shape: JsonShape, value: unknown): string | undefined {
  const { fits, description } = SHAPES[shape];
  return fits(value) ? undefined : `must be ${description}`;
}
