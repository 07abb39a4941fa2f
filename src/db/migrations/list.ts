import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";

/** A migration whose module is imported only when it runs (a started server usually runs none). */
const step =
  (load: () => Promise<(dialect: DialectName) => Migration>) =>
  (dialect: DialectName): Migration => ({
    async up(db: Kysely<any>) {
      await (await load())(dialect).up(db);
    },
  });

const STEPS = {
  "001-foundation": step(async () => (await import("./001-foundation")).foundation),
  "002-relay": step(async () => (await import("./002-relay")).relay),
  "003-money-and-records": step(async () => (await import("./003-money-and-records")).moneyAndRecords),
  "004-log-indexes": step(async () => (await import("./004-log-indexes")).logIndexes),
  "005-username-keys": step(async () => (await import("./005-username-keys")).usernameKeys),
  "006-accounts-email": step(async () => (await import("./006-accounts-email")).accountsEmail),
  "007-oauth-bindings": step(async () => (await import("./007-oauth-bindings")).oauthBindings),
  "008-quota-leases": step(async () => (await import("./008-quota-leases")).quotaLeases),
  "009-traffic-policy": step(async () => (await import("./009-traffic-policy")).trafficPolicy),
  "010-task-relay": step(async () => (await import("./010-task-relay")).taskRelay),
  "012-import-renumbered": step(async () => (await import("./012-import-renumbered")).importRenumbered),
};

/** Versioned, in order; the same schema on every dialect. Never edit a released step: add one. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return Object.fromEntries(Object.entries(STEPS).map(([name, make]) => [name, make(dialect)]));
}
