import { Secret, TOTP } from "otpauth";

const PERIOD = 30;

/** An authenticator app for a base32 secret: the code of the time step `offset` steps from now. */
export const authenticator = (secret: string) => {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: PERIOD, algorithm: "SHA1" });
  return (offset = 0) => totp.generate({ timestamp: Date.now() + offset * PERIOD * 1000 });
};

/**
 * Waits, when the current 30-second step ends within `margin` seconds, for the next one to begin, so codes a test
 * takes from the previous, current and next steps stay in the server's ±1 window for the test's duration.
 */
export async function awayFromStepEdge(margin = 8): Promise<void> {
  const left = PERIOD - ((Date.now() / 1000) % PERIOD);
  if (left < margin) await Bun.sleep(left * 1000 + 50);
}
