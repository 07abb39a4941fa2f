import { afterAll, beforeAll } from "bun:test";
import type { DialectName } from "../../src/db/connect";
import { createApp } from "../../src/gateway/app";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import { loadConfig } from "../../src/service/config";
import { openServiceContext, type ServiceContext } from "../../src/service/context";
import { ApiClient } from "./client";
import { createTestDatabase, type TestDatabase } from "./databases";

export const ROOT_PASSWORD = "root-pass-1234";

export interface TestServer {
  url: string;
  ctx: ServiceContext;
  database: TestDatabase;
  /** A client signed in as root. */
  root: ApiClient;
  client(): ApiClient;
  /** Registers and signs in a new ordinary user. */
  newUser(username?: string, password?: string): Promise<ApiClient>;
  stop(): Promise<void>;
}

/** The configuration of a test over `database`: a root password, generous rate limits and no sign-in backoff unless `env` says otherwise. */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}) {
  return loadConfig({
    SQL_DSN: database.dsn,
    SQLITE_PATH: database.sqlitePath,
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    CRITICAL_RATE_LIMIT: "100000",
    LOGIN_BACKOFF_AFTER: "0",
    ...env,
  });
}

/** A service context over `database`, as a gateway instance would open it (without the bootstrap). */
export const openTestContext = (database: TestDatabase, env: Record<string, string> = {}): Promise<ServiceContext> =>
  openServiceContext(testConfig(database, env), database.open());

let counter = 0;
export const uniqueName = (prefix = "u") =>
  `${prefix}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`.slice(0, 12);

/**
 * A real gateway on a loopback port over a fresh database of the dialect.
 * `env` overrides configuration; by default a root exists (INITIAL_ROOT_PASSWORD) and rate limits are generous.
 */
export async function startTestServer(dialect: DialectName, env: Record<string, string> = {}): Promise<TestServer> {
  const database = await createTestDatabase(dialect);
  const ctx = await openTestContext(database, env);
  const { config } = ctx;
  await bootstrapRoot(ctx);
  const app = createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}`;
  const client = () => new ApiClient(url);
  const root = client();
  if (config.initialRootPassword) await root.login("root", config.initialRootPassword);
  return {
    url,
    ctx,
    database,
    root,
    client,
    async newUser(username = uniqueName(), password = "password123") {
      const c = client();
      const reg = await c.post("/api/user/register", { username, password, password2: password });
      if (!reg.body.success) throw new Error(`register ${username}: ${reg.body.message}`);
      await c.login(username, password);
      return c;
    },
    async stop() {
      await app.stop(true);
      await ctx.close();
      await database.drop();
    },
  };
}

/** A test server for the enclosing describe: started before its tests, stopped after them. */
export function useTestServer(dialect: DialectName, env: Record<string, string> = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(dialect, env));
  });
  afterAll(() => server.stop());
  return server;
}
