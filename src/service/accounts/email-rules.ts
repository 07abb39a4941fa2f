import type { OptionStore } from "../options/store";
import { refuse } from "../errors";

export const EMAIL_INVALID = "invalid email address";
export const EMAIL_DOMAIN_REFUSED = "the administrator allows only email addresses of whitelisted domains";
export const EMAIL_ALIAS_REFUSED = "the administrator does not allow email aliases (an address with +tag)";

/**
 * An address a code may be sent to, lower-cased: its shape, then the domain whitelist
 * (EmailDomainRestrictionEnabled, EmailDomainWhitelist) and the alias rule (EmailAliasRestrictionEnabled).
 */
export function checkEmailAddress(options: OptionStore, input: unknown): string {
  const email = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (!email) refuse("email is required");
  if (email.length > 191 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email)) refuse(EMAIL_INVALID);
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (options.bool("EmailDomainRestrictionEnabled")) {
    const allowed = options
      .raw("EmailDomainWhitelist")
      .split(",")
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean);
    if (!allowed.includes(domain)) refuse(EMAIL_DOMAIN_REFUSED);
  }
  if (options.bool("EmailAliasRestrictionEnabled") && local.includes("+")) refuse(EMAIL_ALIAS_REFUSED);
  return email;
}
