import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (apt-get install chromium), headless with the flags of the stack recipe. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
