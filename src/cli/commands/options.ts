import type { Command } from "commander";
import { listOptions, saveOption } from "../../service/options/admin";
import { refuse } from "../../service/errors";
import { withService } from "../context";
import { jsonFlag, readStdin, sub } from "../define";
import { action, emit, printTable, say } from "../output";

/** The subcommands of `tollgate option`. */
export function optionCommands(option: Command): void {
  jsonFlag(sub(option, "list", "list every option and its value", "tollgate option list --json")).action(
    action(async (flags: { json?: boolean }) =>
      withService(async (ctx) => {
        const options = listOptions(ctx);
        emit(options, flags.json, () =>
          printTable(options, [
            { header: "KEY", value: (o) => o.key },
            { header: "VALUE", value: (o) => o.value },
          ]),
        );
      }),
    ),
  );

  jsonFlag(sub(option, "get <key>", "print one option's value", "tollgate option get QuotaForNewUser")).action(
    action(async (key: string, flags: { json?: boolean }) =>
      withService(async (ctx) => {
        const found = listOptions(ctx).find((o) => o.key === key) ?? refuse(`unknown option: ${key}`);
        emit(found, flags.json, () => say(found.value));
      }),
    ),
  );

  sub(
    option,
    "set <key> <value>",
    'save one option ("-" reads the value from stdin)',
    "tollgate option set ModelRatio - < ratios.json",
  ).action(
    action(async (key: string, value: string) => {
      const text = value === "-" ? await readStdin() : value;
      await withService(async (ctx) => {
        await saveOption(ctx, { key, value: text });
        say(`saved ${key}`);
      });
    }),
  );
}
