import { effect, signal, type Signal } from "@preact/signals-react";

/** A signal kept in localStorage under `key` as JSON; unreadable or missing values fall back. */
export function persistedSignal<T>(key: string, fallback: T): Signal<T> {
  const state = signal<T>(read(key, fallback));
  effect(() => {
    const value = state.value;
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  });
  return state;
}

function read<T>(key: string, fallback: T): T {
  const stored = localStorage.getItem(key);
  if (stored === null) return fallback;
  try {
    return JSON.parse(stored) as T;
  } catch {
    return fallback;
  }
}
