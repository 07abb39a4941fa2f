import type { Db } from "../../db/connect";
import { inTransaction, type Exec } from "../../db/exec";
import { insertIfAbsent, readAll, readOne, removeKey, upsert } from "../../db/queries/key-value";
import {
  allTokenSeals,
  channelKeysWithout,
  storeChannelKey,
  storeTokenKeyForms,
} from "../../db/queries/stored-secrets";
import type { Config } from "../config";
import { keyedHash } from "../crypto";
import { OPTION_DEFS } from "../options/registry";
import { storedFormsOf } from "../tokens/key";
import { unseal } from "../tokens/seal";
import { AtRestCipher, isSealedAtRest, SEALED_PREFIX, WRONG_KEY } from "./at-rest";
import { KEY_CHECK, LEGACY_SECRET, resolveSecretKey, type SecretKey } from "./secret-key";

const checkOf = (secret: string): string => keyedHash(secret, "secret key check");

/** Token keys sealed under the secret the database used to hold are sealed (and hashed) under the current one. */
async function resealLegacyTokens(tx: Exec, secret: string): Promise<void> {
  const legacy = await readOne(tx, "internals", LEGACY_SECRET);
  if (legacy === undefined) return;
  if (legacy !== secret) {
    for (const token of await allTokenSeals(tx)) {
      const raw = unseal(legacy, token.key_sealed);
      if (raw !== undefined) await storeTokenKeyForms(tx, token.id, storedFormsOf({ secret }, raw));
    }
  }
  await removeKey(tx, "internals", LEGACY_SECRET);
}

/** Channel keys and secret options still in plaintext (from before, or written by another tool) are encrypted. */
async function sealPlaintext(tx: Exec, cipher: AtRestCipher): Promise<void> {
  for (const channel of await channelKeysWithout(tx, SEALED_PREFIX))
    await storeChannelKey(tx, channel.id, cipher.seal(channel.key));
  const options = await readAll(tx, "options");
  for (const def of OPTION_DEFS) {
    const value = options.get(def.key);
    if (def.secret && value && !isSealedAtRest(value)) await upsert(tx, "options", def.key, cipher.seal(value));
  }
}

/**
 * The server secret and the cipher of secrets at rest, after bringing the database in line: a start with another
 * key than the one that encrypted it fails here, before anything is read; the secret an older version kept in the
 * database leaves it; plaintext secrets are encrypted. Idempotent, in one transaction.
 */
export async function openSecrets(db: Db, config: Config): Promise<SecretKey & { cipher: AtRestCipher }> {
  const key = await resolveSecretKey(db, config);
  // First writer wins, so two first starts with different keys cannot both go on.
  if ((await insertIfAbsent(db, "internals", KEY_CHECK, checkOf(key.secret))) !== checkOf(key.secret)) {
    throw new Error(`${WRONG_KEY} (the key of ${key.source})`);
  }
  const cipher = new AtRestCipher(key.secret);
  await inTransaction(db, async (tx) => {
    await resealLegacyTokens(tx, key.secret);
    await sealPlaintext(tx, cipher);
  });
  return { ...key, cipher };
}
