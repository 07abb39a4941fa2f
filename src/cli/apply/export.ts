import { manageableUser } from "../../service/users/admin-access";
import { exportChannels } from "./channels";
import { FORMAT_VERSION, type ConfigDocument } from "./document";
import { exportOptions } from "./options";
import type { Entry, Planner } from "./plan";
import { exportRedemptions } from "./redemptions";
import { exportTokens } from "./tokens";
import { allUsers, exportUsers } from "./users";

const nonEmpty = (entries: Entry[]) => (entries.length ? entries : undefined);

/** The current state in the format apply reads, so export → apply reproduces it; secrets only `withSecrets`. */
export async function exportDocument(planner: Planner, withSecrets: boolean): Promise<ConfigDocument> {
  const { ctx, root } = planner;
  const live = (await allUsers(planner)).filter((user) => !user.DeletedAt).reverse();
  const owners = [];
  for (const user of live) owners.push(await manageableUser(ctx, root, user.id));
  return {
    version: FORMAT_VERSION,
    options: exportOptions(ctx, withSecrets),
    users: nonEmpty(exportUsers(live)),
    channels: nonEmpty(await exportChannels(planner, withSecrets)),
    tokens: nonEmpty(await exportTokens(planner, owners, withSecrets)),
    redemptions: nonEmpty(await exportRedemptions(planner)),
  };
}
