import type { Command } from "commander";
import { cliConfig } from "../context";
import { sub } from "../define";
import { action, say } from "../output";

/** secrets move-key: where the key that encrypts channel keys, secret options and token keys is kept. */
export function secretsCommands(command: Command): void {
  sub(
    command,
    "move-key",
    "move the secret key file out of the data folder, then set SECRET_KEY_FILE to its new path",
    "tollgate secrets move-key --to /etc/tollgate/key",
  )
    .requiredOption("--to <path>", "the new place of the key file")
    .action(
      action(async (flags: { to: string }) => {
        const { moveSecretKey } = await import("../../service/secrets/move-key");
        say(moveSecretKey(cliConfig(), flags.to));
      }),
    );
}
