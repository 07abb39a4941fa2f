import type * as Tls from "node:tls";
import type { OptionStore } from "../options/store";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends one mail or throws; the port the accounts use, so a test points it at an SMTP server of its own. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
}

/** The SMTP settings root keeps in the options (SMTPServer, SMTPPort, SMTPAccount, SMTPToken, SMTPFrom, SMTPSSLEnabled). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS from the first byte; otherwise STARTTLS whenever the server offers it. */
  implicitTls: boolean;
  account: string;
  password: string;
  from: string;
}

export const smtpSettingsOf = (options: OptionStore): SmtpSettings => ({
  host: options.raw("SMTPServer").trim(),
  port: options.num("SMTPPort"),
  implicitTls: options.bool("SMTPSSLEnabled"),
  account: options.raw("SMTPAccount").trim(),
  password: options.raw("SMTPToken"),
  from: options.raw("SMTPFrom").trim(),
});

/** A mail over SMTP with nodemailer, with the settings current at the time of sending (a change applies at once). */
export class SmtpMailSender implements MailSender {
  /** `extraCa`: PEM certificates trusted for the SMTP server besides the system's ones. */
  constructor(
    private readonly settings: () => SmtpSettings,
    private readonly extraCa?: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const s = this.settings();
    // Loaded on the first mail: a gateway that never sends one does not pay for it at start.
    const { default: nodemailer } = await import("nodemailer");
    const transport = nodemailer.createTransport({
      host: s.host,
      port: s.port,
      secure: s.implicitTls,
      auth: s.account ? { user: s.account, pass: s.password } : undefined,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
      tls: this.extraCa ? { ca: [...(require("node:tls") as typeof Tls).rootCertificates, this.extraCa] } : undefined,
    });
    try {
      await transport.sendMail({
        from: s.from || s.account,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    } finally {
      transport.close();
    }
  }
}
