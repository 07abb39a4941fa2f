import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "./errors";

export interface Polled<T> {
  data?: T;
  error?: string;
  /** Loads again now. */
  reload: () => void;
}

/**
 * Calls `load` now, again whenever `key` changes or reload() is called, and every `everyMs` (0: never)
 * counted from the end of the previous call, so slow calls never overlap.
 */
export function usePoll<T>(load: () => Promise<T>, key: string, everyMs = 0): Polled<T> {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const data = await loadRef.current();
        if (live) setState({ data });
      } catch (error) {
        if (live) setState((before) => ({ data: before.data, error: errorText(error) }));
      }
      if (live && everyMs > 0) timer = setTimeout(tick, everyMs);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, round, everyMs]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
