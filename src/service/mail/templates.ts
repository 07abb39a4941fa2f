import type { MailLanguage } from "./language";

export interface MailText {
  subject: string;
  text: string;
}

/** Every mail the site sends, in both languages; `site` is the SystemName. */
export const MAILS = {
  verificationCode: (site: string, code: string, minutes: number): Record<MailLanguage, MailText> => ({
    zh: {
      subject: `${site} 邮箱验证码`,
      text: `您好，您正在进行 ${site} 邮箱验证。\n\n您的验证码为：${code}\n\n验证码 ${minutes} 分钟内有效。如果不是您本人操作，请忽略本邮件。`,
    },
    en: {
      subject: `${site} email verification code`,
      text: `Hello, you are verifying your email address on ${site}.\n\nYour verification code is: ${code}\n\nIt is valid for ${minutes} minutes. If this was not you, ignore this mail.`,
    },
  }),
  passwordReset: (site: string, link: string, minutes: number): Record<MailLanguage, MailText> => ({
    zh: {
      subject: `${site} 密码重置`,
      text: `您好，您正在重置 ${site} 的密码。\n\n请打开以下链接完成重置（${minutes} 分钟内有效，仅可使用一次）：\n${link}\n\n如果不是您本人操作，请忽略本邮件。`,
    },
    en: {
      subject: `${site} password reset`,
      text: `Hello, you asked to reset your password on ${site}.\n\nOpen this link to finish (valid for ${minutes} minutes, once):\n${link}\n\nIf this was not you, ignore this mail.`,
    },
  }),
  quotaReminder: (site: string, balance: string, link: string): Record<MailLanguage, MailText> => ({
    zh: {
      subject: `${site} 您的额度即将用尽`,
      text: `您好，您在 ${site} 的剩余额度为 ${balance}，即将用尽。\n\n为了不影响使用，请及时充值：\n${link}`,
    },
    en: {
      subject: `${site}: your quota is running low`,
      text: `Hello, your remaining quota on ${site} is ${balance} and is running low.\n\nTop up in time to keep your calls going:\n${link}`,
    },
  }),
  testMail: (site: string): Record<MailLanguage, MailText> => ({
    zh: { subject: `${site} 测试邮件`, text: `这是一封来自 ${site} 的测试邮件：SMTP 设置可以正常发信。` },
    en: { subject: `${site} test mail`, text: `This is a test mail from ${site}: its SMTP settings can send mail.` },
  }),
};
