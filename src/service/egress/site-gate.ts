import type { OptionStore } from "../options/store";
import { AddressPolicy } from "./address-policy";
import { normalizeAllowList } from "./allow-list";
import { UpstreamGate } from "./gate";

const ENV_NAME = "UPSTREAM_ALLOW_PRIVATE";

/**
 * Private destinations the process's environment allows (UPSTREAM_ALLOW_PRIVATE, same syntax as the option),
 * added to root's list: read once at start, and wrong entries stop the start.
 */
const processAllowance: readonly string[] = normalizeAllowList(
  process.env[ENV_NAME] ?? "",
  (entry) => new Error(`${ENV_NAME}: "${entry}" is not an IP address, a CIDR range or a host name`),
);

/** The gate of the environment's allowance alone (callers that have no site options). */
export const processGate = new UpstreamGate(new AddressPolicy({ allowed: processAllowance, allowLinkLocal: false }));

const gates = new WeakMap<OptionStore, { ranges: string; linkLocal: boolean; gate: UpstreamGate }>();

/**
 * The gate of the site's current options (UpstreamAllowedPrivateRanges, UpstreamAllowLinkLocal) and the
 * environment's allowance. The same object while the options stay the same: connections pooled under an
 * earlier gate are not reused after a change.
 */
export function upstreamGate(options: OptionStore): UpstreamGate {
  const ranges = options.raw("UpstreamAllowedPrivateRanges");
  const linkLocal = options.bool("UpstreamAllowLinkLocal");
  const kept = gates.get(options);
  if (kept && kept.ranges === ranges && kept.linkLocal === linkLocal) return kept.gate;
  const allowed = [...processAllowance, ...ranges.split(",").filter(Boolean)];
  const gate = new UpstreamGate(new AddressPolicy({ allowed, allowLinkLocal: linkLocal }));
  gates.set(options, { ranges, linkLocal, gate });
  return gate;
}
