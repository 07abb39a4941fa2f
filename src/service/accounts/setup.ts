import { inTransaction } from "../../db/exec";
import { hasSetupRow, insertSetupRow, lockSetup } from "../../db/queries/setups";
import { hasLiveRoot } from "../../db/queries/users";
import { Role } from "../../shared/constants";
import { VERSION } from "../../shared/version";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { insertPreparedUser, prepareUser } from "../users/create";

const ROOT_QUOTA = 100_000_000;
const setUpContexts = new WeakSet<ServiceContext>();

/** What this process knows without asking the database (true once set up; see watchSetup). */
export const knownSetUp = (ctx: ServiceContext): boolean => setUpContexts.has(ctx);

/** Until set up, re-checks every second, so a setup finished by another instance shows here. */
export function watchSetup(ctx: ServiceContext): void {
  if (knownSetUp(ctx)) return;
  const timer = setInterval(async () => {
    if (await isSetUp(ctx).catch(() => false)) clearInterval(timer);
  }, 1000);
  timer.unref();
}

/** Set up once a setup row or a root exists; once true it stays true for this process. */
export async function isSetUp(ctx: ServiceContext): Promise<boolean> {
  if (setUpContexts.has(ctx)) return true;
  const done = (await hasSetupRow(ctx.db)) || (await hasLiveRoot(ctx.db, Role.Root));
  if (done) setUpContexts.add(ctx);
  return done;
}

export async function setupState(ctx: ServiceContext) {
  const status = await isSetUp(ctx);
  return { status, root_init: status || (await hasLiveRoot(ctx.db, Role.Root)), database_type: ctx.db.dialect };
}

export interface SetupInput {
  username?: unknown;
  password?: unknown;
  confirmPassword?: unknown;
  SelfUseModeEnabled?: unknown;
  DemoSiteEnabled?: unknown;
}

/**
 * Creates the root account unless one exists; answers whether this call created it. The check is made under
 * the setup lock, so of several processes starting together on an empty database exactly one creates it.
 */
async function createRoot(ctx: ServiceContext, username: string, password: string): Promise<boolean> {
  const prepared = await prepareUser({
    username,
    password,
    display_name: "Root User",
    role: Role.Root,
    quota: ROOT_QUOTA,
  });
  const created = await inTransaction(ctx.db, async (tx) => {
    await lockSetup(tx);
    if (await hasLiveRoot(tx, Role.Root)) return false;
    await insertPreparedUser(tx, prepared);
    await insertSetupRow(tx, VERSION, nowSeconds());
    return true;
  });
  setUpContexts.add(ctx);
  return created;
}

/** The first-run wizard: creates the root account, once. */
export async function completeSetup(ctx: ServiceContext, input: SetupInput): Promise<void> {
  if (await isSetUp(ctx)) refuse("the system is already initialized");
  const username = typeof input.username === "string" ? input.username : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!username.trim() || !password) refuse("username and password are required");
  if (password !== input.confirmPassword) refuse("the two passwords do not match");
  if (!(await createRoot(ctx, username, password))) refuse("the system is already initialized");
  for (const key of ["SelfUseModeEnabled", "DemoSiteEnabled"] as const) {
    if (typeof input[key] === "boolean") await ctx.options.set(key, input[key]);
  }
}

/**
 * At start (of `serve` and of every CLI command): INITIAL_ROOT_PASSWORD creates `root` when no root exists.
 * No factory-default password, ever. Safe when several processes start together: one creates, the others find it.
 */
export async function bootstrapRoot(ctx: ServiceContext): Promise<"created" | "exists" | "needs-setup"> {
  if (await hasLiveRoot(ctx.db, Role.Root)) {
    if (!(await hasSetupRow(ctx.db))) await insertSetupRow(ctx.db, VERSION, nowSeconds());
    setUpContexts.add(ctx);
    return "exists";
  }
  const password = ctx.config.initialRootPassword;
  if (!password) return "needs-setup";
  return (await createRoot(ctx, "root", password)) ? "created" : "exists";
}
