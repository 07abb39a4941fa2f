import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { ServiceContext } from "../../src/service/context";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Whether the session that delivered it was encrypted (STARTTLS or implicit TLS). */
  secure: boolean;
  /** The account it authenticated as, if it did. */
  user?: string;
}

type SmtpExtras = Partial<Record<"SMTPAccount" | "SMTPToken" | "SMTPFrom", string>>;

export interface TestSmtpServer {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the next mail to `to` (or one already received and not yet taken). */
  nextMailTo(to: string): Promise<ReceivedMail>;
  /** Points the gateway's SMTP options at this server. */
  configure(ctx: ServiceContext, extra?: SmtpExtras): Promise<void>;
  /** The SMTP options that point a gateway at this server. */
  options(extra?: SmtpExtras): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port (the `smtp-server` package): STARTTLS offered with the test certificate;
 * with `account` set, AUTH is required and checked (wrong password: 535); `implicitTls`: TLS from the first byte.
 */
export async function startSmtpServer(
  account?: { user: string; pass: string },
  options: { implicitTls?: boolean } = {},
): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: { to: string; resolve: (m: ReceivedMail) => void }[] = [];
  const key = await Bun.file(new URL("../fixtures/upstream-test-key.pem", import.meta.url)).text();
  const cert = await Bun.file(new URL("../fixtures/upstream-test-cert.pem", import.meta.url)).text();
  const server = new SMTPServer({
    key,
    cert,
    secure: options.implicitTls ?? false,
    authOptional: !account,
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (account && auth.username === account.user && auth.password === account.pass) {
        return callback(null, { user: auth.username });
      }
      return callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            secure: session.secure,
            user: typeof session.user === "string" ? session.user : undefined,
          };
          mails.push(mail);
          const waiter = waiters.findIndex((w) => mail.to.includes(w.to));
          if (waiter >= 0) {
            taken.add(mail);
            waiters.splice(waiter, 1)[0]!.resolve(mail);
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const smtp: TestSmtpServer = {
    port,
    mails,
    nextMailTo(to) {
      const ready = mails.find((m) => !taken.has(m) && m.to.includes(to));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiters.push({ to, resolve }));
    },
    options: (extra = {}) => ({
      SMTPServer: "127.0.0.1",
      SMTPPort: String(port),
      SMTPSSLEnabled: options.implicitTls ? "true" : "false",
      SMTPFrom: "noreply@tollgate.test",
      SMTPAccount: "",
      SMTPToken: "",
      ...extra,
    }),
    async configure(ctx, extra = {}) {
      for (const [k, v] of Object.entries(smtp.options(extra))) await ctx.options.set(k as never, v);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}
