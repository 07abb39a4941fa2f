import { resolve } from "node:path";
import type { Config } from "../config";
import { refuse } from "../errors";
import { moveKeyFile } from "./key-file";

/**
 * Moves the secret key file out of the data folder (to a path a copy of the data does not include). The running
 * server keeps its key in memory; the next start must be told the new place (SECRET_KEY_FILE), else it refuses to
 * start rather than make a new key.
 */
export function moveSecretKey(config: Config, to: string): string {
  if (config.sessionSecret) refuse("the secret key is SESSION_SECRET here: there is no key file to move");
  if (!config.secretKeyFile) refuse("an in-memory database has no key file");
  const from = resolve(config.secretKeyFile);
  const target = resolve(to);
  if (from === target) refuse(`the key file is already at ${target}`);
  try {
    moveKeyFile(from, target);
  } catch (error) {
    refuse((error as Error).message);
  }
  return `moved the secret key to ${target}; set SECRET_KEY_FILE=${target} for the server and the CLI (every instance sharing this database needs this key)`;
}
