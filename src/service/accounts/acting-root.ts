import { findFirstLiveRoot } from "../../db/queries/users";
import { Role } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import type { UserRow } from "../users/directory";

export const NO_ROOT = "no root user yet: run the server's setup or set INITIAL_ROOT_PASSWORD";

/** Whom the CLI and the TUI act as on the local database: the first live root account, which must exist. */
export async function actingRoot(ctx: ServiceContext): Promise<UserRow> {
  return (await findFirstLiveRoot(ctx.db, Role.Root)) ?? Promise.reject(new ServiceError(NO_ROOT));
}
