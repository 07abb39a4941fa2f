import { DISPLAY_NAME_MAX } from "../../shared/constants";
import { refuse } from "../errors";
import { withinLength } from "../input";
import { refuseUnseenCharacters } from "./names";

/** Trimmed; an empty display name means "use the username", which the caller fills in. */
export const displayNameOf = (text: string): string =>
  refuseUnseenCharacters(withinLength(text.trim(), DISPLAY_NAME_MAX, "display name"), "display name");

/** Trimmed; empty clears the email. */
export function emailOf(text: string): string | null {
  const email = withinLength(text.trim(), 255, "email");
  if (!email) return null;
  return /^[^\s@]+@[^\s@]+$/.test(email) ? email : refuse("email is not valid");
}
