/** Constants both the console and the server speak. */
export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;
export const UserStatus = { Enabled: 1, Disabled: 2 } as const;
export const LogType = { Unknown: 0, TopUp: 1, Consume: 2, Manage: 3, System: 4, Error: 5, Refund: 6 } as const;

/** 500000 quota units are one US dollar. */
export const QUOTA_PER_UNIT = 500000;
export const DEFAULT_GROUP = "default";
export const AUTO_GROUP = "auto";

export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const DISPLAY_NAME_MAX = 20;
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_CHOICES = [10, 20, 50, 100] as const;
