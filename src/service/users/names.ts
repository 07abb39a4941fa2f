import { refuse } from "../errors";
import { confusablesSkeleton } from "./confusables";

/** Control, format (zero-width, bidi overrides), unpaired surrogate, private-use and unassigned characters. */
const UNSEEN = /\p{C}/u;
const ALL_UNSEEN = /\p{C}/gu;

/** Refuses a name that holds characters which are invisible, reorder the text around them, or mean nothing. */
export function refuseUnseenCharacters(name: string, label: string): string {
  if (UNSEEN.test(name))
    refuse(`${label} must not contain control, zero-width, bidirectional or unassigned characters`);
  return name;
}

/** Longest key stored as it is; a longer one (NFKC can expand a character into many) is stored as its hash. */
const KEY_MAX = 128;

/**
 * The form in which two usernames that look alike are equal: NFKC (fullwidth and compatibility forms), lower
 * case, then Unicode's confusables skeleton (TR39, `confusables.ts`), lower-cased again because the skeleton maps
 * some characters to capitals (0 → O). Case folds first, so "Root" meets "root" whatever the skeleton does to R.
 * Unseen characters are dropped, so a name from before they were refused ("root" + U+200B) blocks "root".
 */
export function usernameKey(username: string): string {
  const visible = username.replace(ALL_UNSEEN, "");
  const key = confusablesSkeleton(visible.normalize("NFKC").toLowerCase()).normalize("NFKC").toLowerCase();
  return key.length <= KEY_MAX ? key : `#${new Bun.CryptoHasher("sha256").update(key).digest("hex")}`;
}
