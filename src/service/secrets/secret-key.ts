import { dirname, resolve } from "node:path";
import type { Db } from "../../db/connect";
import { readOne } from "../../db/queries/key-value";
import type { Config } from "../config";
import { randomAlphanumeric } from "../crypto";
import { WRONG_KEY } from "./at-rest";
import { createKeyFile, readKeyFile } from "./key-file";

/** Where the server secret was in versions that kept it in the database (read once, to move it out). */
export const LEGACY_SECRET = "session_secret";
/** An HMAC of a constant under the secret: tells a start with another key before anything is decrypted. */
export const KEY_CHECK = "secret_key_check";

export interface SecretKey {
  secret: string;
  /** "SESSION_SECRET", the key file's path, or "memory". */
  source: string;
  /** What the operator should know at start (the key moved, or lies beside the data). */
  notices: string[];
}

const besideTheData = (config: Config, path: string): boolean =>
  config.sqlDsn === "" && resolve(dirname(path)) === resolve(dirname(config.sqlitePath));

function keyFileNotices(config: Config, path: string, moved: boolean): string[] {
  const notices = moved ? [`[secrets] moved the secret key out of the database into ${path}`] : [];
  if (besideTheData(config, path)) {
    notices.push(
      `[secrets] warning: the secret key file ${path} is in the database's folder, so a copy of that folder reveals ` +
        "every channel key, secret option and token key; move it elsewhere with `tollgate secrets move-key --to <path>` " +
        "and set SECRET_KEY_FILE to that path, or set SESSION_SECRET to its content instead",
    );
  }
  return notices;
}

/**
 * SESSION_SECRET when set; else the key file, created 0600 on first start. A database from before holds its secret
 * in `internals`: that secret becomes the key file's content (so sessions, access tokens and token keys stay valid).
 * A database whose secrets were encrypted with a key this instance lacks is refused, rather than given a new key.
 */
export async function resolveSecretKey(db: Db, config: Config): Promise<SecretKey> {
  if (config.sessionSecret) return { secret: config.sessionSecret, source: "SESSION_SECRET", notices: [] };
  const path = config.secretKeyFile;
  if (!path) return { secret: randomAlphanumeric(64), source: "memory", notices: [] };
  const existing = readKeyFile(path);
  if (existing !== undefined) return { secret: existing, source: path, notices: keyFileNotices(config, path, false) };
  if ((await readOne(db, "internals", KEY_CHECK)) !== undefined) {
    throw new Error(
      `${WRONG_KEY}: there is no key file at ${path}; copy the key file of the instance that encrypted them there ` +
        "(or point SECRET_KEY_FILE at it), or set SESSION_SECRET to the key it holds",
    );
  }
  const legacy = await readOne(db, "internals", LEGACY_SECRET);
  const secret = createKeyFile(path, legacy ?? randomAlphanumeric(64));
  return { secret, source: path, notices: keyFileNotices(config, path, legacy !== undefined && legacy === secret) };
}
