import { render } from "ink";
import { relayProbe } from "../../gateway/relay/probe";
import { actingRoot } from "../../service/accounts/acting-root";
import { openCliService } from "../context";
import type { Language } from "./language";
import { compileMacrosOnLoad } from "./macros";

/** Opens the server's database as the root user and runs the TUI full-screen until q (or Ctrl+C). */
export async function runTui(language: Language): Promise<void> {
  await compileMacrosOnLoad();
  const [{ App }, { i18n }] = await Promise.all([import("./app"), import("../../console/i18n")]);
  i18n.activate(language);
  const ctx = await openCliService();
  try {
    const actor = await actingRoot(ctx);
    // The terminal was checked before; a CI variable in the environment must not turn the screen static.
    const app = render(<App ctx={ctx} actor={actor} probe={relayProbe(ctx)} />, {
      alternateScreen: true,
      interactive: true,
    });
    await app.waitUntilExit();
  } finally {
    await ctx.close();
  }
}
