import { timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import { ipAllowed } from "../relay/allow-ips";

/**
 * Who may read /metrics: a client whose address is in METRICS_ALLOW, or one presenting METRICS_TOKEN as a bearer
 * token. "off" when neither is set: the endpoint then does not exist (its figures name models and channels).
 */
export function metricsAccess(
  config: Pick<Config, "metricsToken" | "metricsAllow">,
  authorization: string | null,
  ip: string,
): "allowed" | "refused" | "off" {
  const { metricsToken, metricsAllow } = config;
  if (!metricsToken && !metricsAllow.trim()) return "off";
  if (metricsAllow.trim() && ipAllowed(metricsAllow, ip)) return "allowed";
  if (!metricsToken || !authorization?.startsWith("Bearer ")) return "refused";
  const given = Buffer.from(authorization.slice(7).trim());
  const expected = Buffer.from(metricsToken);
  return given.length === expected.length && timingSafeEqual(given, expected) ? "allowed" : "refused";
}
