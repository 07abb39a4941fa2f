import { Option, type Command } from "commander";
import { LANGUAGES, languageOf } from "../tui/language";
import { action, usage } from "../output";

export const NO_TERMINAL = "tollgate tui needs an interactive terminal";

const HELP = `
Acts as the root user on the server's database, with the same rules as the API.
Laid out for 80×24 and up; keyboard only. 1-4 or Tab switch screens, q quits,
Esc closes a question; each screen lists its keys at the bottom. Disabling and
demoting ask y/n first.

  1 Overview  every 2 s: requests and tokens per minute (consume rows of the last
              60 s), quota spent today (server's local day), error rate (error rows
              over error + consume rows of the last hour; error rows are kept only
              while the option ErrorLogEnabled is on), today's top 5 models and users
  2 Channels  / filter (name words, model:NAME, group:NAME), t test, e enable,
              d disable, p priority, w weight
  3 Users     / search, e enable, d disable, a add money ($ or ¥ as shown; -N subtracts),
              + promote, - demote
  4 Logs      live tail, every second: / filter (user, model:NAME, channel:ID),
              x errors only

Language: --lang, else en when LC_ALL, LC_MESSAGES or LANG (the first set) names
English, otherwise zh (the product's default, also for C/POSIX or no locale).`;

/** `tollgate tui`: refuses at once without a terminal (exit 2); loads ink and the screens only when it runs. */
export function tuiCommand(command: Command): void {
  command
    .addOption(new Option("--lang <lang>", "zh or en (default: from the locale, see below)").choices(LANGUAGES))
    .addHelpText("after", HELP)
    .action(
      action(async (flags: { lang?: string }) => {
        if (!process.stdin.isTTY || !process.stdout.isTTY) usage(NO_TERMINAL);
        const { runTui } = await import("../tui/run");
        await runTui(languageOf(flags.lang));
      }),
    );
}
