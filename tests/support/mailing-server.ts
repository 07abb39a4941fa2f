import { afterAll, beforeAll } from "bun:test";
import { join } from "node:path";
import type { DialectName } from "../../src/db/connect";
import { startTestServer, type TestServer } from "./server";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server";

/** The test certificate the SMTP server presents; the gateway trusts it through SMTP_CA_FILE. */
export const SMTP_TEST_CA = join(import.meta.dir, "../fixtures/upstream-test-cert.pem");

export interface MailingServer {
  s: TestServer;
  smtp: TestSmtpServer;
}

/**
 * For the enclosing describe: a gateway over a fresh database of the dialect, whose SMTP options point at a real SMTP
 * server on loopback; `arrange` runs once both are up. Both stop after the describe's tests.
 */
export function useMailingServer(
  dialect: DialectName,
  env: Record<string, string> = {},
  arrange: (started: MailingServer) => Promise<void> = async () => {},
): MailingServer {
  const started = {} as MailingServer;
  beforeAll(async () => {
    started.s = await startTestServer(dialect, { SMTP_CA_FILE: SMTP_TEST_CA, ...env });
    started.smtp = await startSmtpServer();
    await started.smtp.configure(started.s.ctx);
    await arrange(started);
  });
  afterAll(async () => {
    await started.smtp?.stop();
    await started.s?.stop();
  });
  return started;
}
