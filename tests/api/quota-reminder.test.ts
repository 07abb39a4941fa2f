import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { QuotaReminder } from "../../src/service/accounts/quota-reminder";
import { startRelayEnv, USER_QUOTA, type RelayEnv } from "../relay/support";
import { openTestContext } from "../support/server";
import { DIALECTS } from "../support/databases";
import { useMailingServer } from "../support/mailing-server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";

const CA = join(import.meta.dir, "../fixtures/upstream-test-cert.pem");

describe("the low-balance reminder (QuotaRemindThreshold)", () => {
  let r: RelayEnv;
  let smtp: TestSmtpServer;
  const email = "spender@example.com";
  const chat = () =>
    r.openai().chat.completions.create({ model: "test-chat", messages: [{ role: "user", content: "hi" }] });
  const remindedAt = async () =>
    (
      await r.s.ctx.db.k
        .selectFrom("users")
        .select("quota_reminded_at")
        .where("id", "=", r.user.userId!)
        .executeTakeFirstOrThrow()
    ).quota_reminded_at;

  beforeAll(async () => {
    r = await startRelayEnv("sqlite", { SMTP_CA_FILE: CA });
    smtp = await startSmtpServer();
    await smtp.configure(r.s.ctx);
    await r.setPrices({ "test-chat": 2 });
    await r.addChannel({ models: "test-chat" });
    await r.s.ctx.db.k.updateTable("users").set({ email }).where("id", "=", r.user.userId!).execute();
    await r.s.root.put("/api/option/", { key: "ServerAddress", value: "https://gate.example.com" });
    await r.s.root.put("/api/option/", { key: "SystemName", value: "Gatehouse" });
  });
  afterAll(async () => {
    await r.stop();
    await smtp.stop();
  });

  test("a balance still above the threshold sends nothing", async () => {
    await r.s.root.put("/api/option/", { key: "QuotaRemindThreshold", value: "1000" });
    await chat();
    await r.flushed();
    expect(await remindedAt()).toBe(0);
    expect(smtp.mails.filter((m) => m.to.includes(email))).toEqual([]);
  });

  test("falling below it mails the user once, with the top-up link; the next calls within 2 hours send no other", async () => {
    await r.s.root.put("/api/option/", { key: "QuotaRemindThreshold", value: String(USER_QUOTA) });
    await chat();
    await r.flushed();
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe("Gatehouse 您的额度即将用尽");
    expect(mail.text).toContain("https://gate.example.com/topup");
    const first = await remindedAt();
    expect(first).toBeGreaterThan(0);
    await chat();
    await chat();
    await r.flushed();
    // The reminder runs after the write, off the relay's path: give it time to send a second mail if it would.
    await Bun.sleep(300);
    expect(await remindedAt()).toBe(first);
    expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  test("TopUpLink, when root set one, is the link in the mail", async () => {
    await r.s.root.put("/api/option/", { key: "TopUpLink", value: "https://shop.example.com/buy" });
    await r.s.ctx.db.k.updateTable("users").set({ quota_reminded_at: 0 }).where("id", "=", r.user.userId!).execute();
    // A fresh instance's memory: a new context over the same database is what another instance would be.
    const other = await openTestContext(r.s.database, { SMTP_CA_FILE: CA });
    try {
      await new QuotaReminder(other).check(new Map([[r.user.userId!, 10]]));
      const mail = await smtp.nextMailTo(email);
      expect(mail.text).toContain("https://shop.example.com/buy");
      // Claimed in the database: a third instance does not send it again.
      const before = smtp.mails.length;
      await new QuotaReminder(other).check(new Map([[r.user.userId!, 10]]));
      expect(smtp.mails.length).toBe(before);
    } finally {
      await other.close();
    }
  });
});

describe.each(DIALECTS)("the reminder's once-per-2-hours claim on %s", (dialect) => {
  const m = useMailingServer(dialect);

  test("two instances' reminders for the same low balance send one mail", async () => {
    const { s, smtp } = m;
    await s.root.put("/api/option/", { key: "QuotaRemindThreshold", value: "1000" });
    const user = await s.newUser();
    const email = `${user.username}@example.com`;
    await s.ctx.db.k.updateTable("users").set({ email }).where("id", "=", user.userId!).execute();
    const balances = new Map([[user.userId!, 10]]);
    await new QuotaReminder(s.ctx).check(balances);
    await new QuotaReminder(s.ctx).check(balances);
    expect((await smtp.nextMailTo(email)).text).toContain("/topup");
    expect(smtp.mails.filter((mail) => mail.to.includes(email))).toHaveLength(1);
  });
});
