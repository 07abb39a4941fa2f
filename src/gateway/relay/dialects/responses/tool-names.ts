import { createHash } from "node:crypto";

/** Where a chat function name came from: a Responses function or custom (free-form input) tool, maybe in a namespace. */
export interface ToolOrigin {
  name: string;
  namespace?: string;
  kind: "function" | "custom";
}

/** Chat function name → the Responses tool it stands for, to name the model's calls as the caller offered them. */
export type ToolNameMap = Record<string, ToolOrigin>;

const VALID_CHAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const HASH_CHARS = 8;

/**
 * Gives every Responses tool a valid chat function name (^[a-zA-Z0-9_-]{1,64}$): namespaced tools become
 * `namespace__name`, other characters become `_`, and a name too long or already taken by another tool ends
 * with a short hash of its origin so two tools never share a name.
 */
export class ToolNames {
  readonly map: ToolNameMap = {};
  private readonly byOrigin = new Map<string, string>();

  chatName(origin: ToolOrigin): string {
    const key = `${origin.namespace ?? ""}\u0000${origin.name}`;
    const known = this.byOrigin.get(key);
    if (known) return known;
    const joined = origin.namespace ? `${origin.namespace}__${origin.name}` : origin.name;
    let name = joined.replace(/[^a-zA-Z0-9_-]/g, "_");
    if (!VALID_CHAT_NAME.test(name) || this.map[name]) {
      const hash = createHash("sha256").update(key).digest("hex").slice(0, HASH_CHARS);
      name = `${name.slice(0, 64 - HASH_CHARS - 1)}_${hash}`;
    }
    this.map[name] = origin;
    this.byOrigin.set(key, name);
    return name;
  }
}

/** The Responses tool a chat function name stands for (itself, as a function, when it was never renamed). */
export function originOf(map: ToolNameMap, chatName: string): ToolOrigin {
  return map[chatName] ?? { name: chatName, kind: "function" };
}
