import { ServiceError } from "../../service/errors";
import { planChannels } from "./channels";
import type { ConfigDocument } from "./document";
import { planOptions } from "./options";
import type { Planner, Step } from "./plan";
import { planRedemptions } from "./redemptions";
import { planTokens } from "./tokens";
import { planUsers } from "./users";

/**
 * The plan of a whole file against the database, in the order it applies: options (groups and prices the
 * rest may use), users, channels, tokens (their owners may be created just before), redemption codes.
 * Planning writes nothing; every value is checked by the services' own field rules.
 */
export async function planDocument(planner: Planner, document: ConfigDocument): Promise<Step[]> {
  const users = await planUsers(planner, document.users ?? []);
  const creating = new Set(users.filter((s) => s.action === "create").map((s) => s.name));
  return [
    ...(await planOptions(planner, document.options ?? {})),
    ...users,
    ...(await planChannels(planner, document.channels ?? [])),
    ...(await planTokens(planner, document.tokens ?? [], creating)),
    ...(await planRedemptions(planner, document.redemptions ?? [])),
  ];
}

/** Runs the steps that change something, in order; the first refusal stops it, naming the object and what was done. */
export async function applySteps(steps: Step[], onProgress: (done: number, total: number) => void): Promise<void> {
  const work = steps.filter((s) => s.run);
  for (const [i, s] of work.entries()) {
    try {
      await s.run!();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const done = i === 0 ? "nothing was changed" : `${i} of ${work.length} changes were made; apply again once fixed`;
      throw new ServiceError(`${s.kind} "${s.name}": ${message} (${done})`);
    }
    onProgress(i + 1, work.length);
  }
}

/** How many steps do what: "2 to create, 1 to update, 5 unchanged". */
export function summary(steps: Step[], done = false): string {
  const count = (action: Step["action"]) => steps.filter((s) => s.action === action).length;
  const [create, update, same] = [count("create"), count("update"), count("unchanged")];
  return done
    ? `applied: ${create} created, ${update} updated, ${same} unchanged`
    : `plan: ${create} to create, ${update} to update, ${same} unchanged`;
}
