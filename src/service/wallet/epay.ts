import type { ServiceContext } from "../context";

export interface EpaySettings {
  /** The gateway's base address; forms are posted to `${address}/submit.php`. */
  address: string;
  /** The merchant id (pid). */
  pid: string;
  /** The merchant key that signs both ways. */
  key: string;
  notifyUrl: string;
  returnUrl: string;
}

/** The Epay merchant settings; undefined while online top-up is not enabled (address, id or key missing). */
export function epaySettings(ctx: ServiceContext): EpaySettings | undefined {
  const o = ctx.options;
  const [address, pid, key] = [o.raw("PayAddress"), o.raw("EpayId"), o.raw("EpayKey")];
  if (!address || !pid || !key) return undefined;
  const server = o.raw("ServerAddress");
  const callback = o.raw("CustomCallbackAddress") || server;
  return { address, pid, key, notifyUrl: `${callback}/api/user/epay/notify`, returnUrl: `${server}/topup` };
}
