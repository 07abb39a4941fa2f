export const RedemptionStatus = { Unused: 1, Disabled: 2, Used: 3 } as const;

export const isExpired = (code: { expired_time: number }, now: number): boolean =>
  code.expired_time !== 0 && code.expired_time <= now;
