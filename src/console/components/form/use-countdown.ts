import { useEffect, useState } from "react";

/** Seconds left before an action may repeat (the spec's 30-second resend wait). */
export function useCountdown(seconds: number) {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return { left, running: left > 0, start: () => setLeft(seconds) };
}
