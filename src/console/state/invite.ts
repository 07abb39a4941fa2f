/** The invite code of a /register?aff=CODE link, kept until registration sends it as aff_code. */
const KEY = "aff";

export const rememberInviteCode = (code: string) => localStorage.setItem(KEY, code);
export const inviteCode = (): string => localStorage.getItem(KEY) ?? "";
