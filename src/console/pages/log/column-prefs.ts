import { persistedSignal } from "../../state/persisted";

/** The log table's hidden columns, kept in localStorage under log-columns ({column id: false}). */
export const logColumnPrefs = persistedSignal<Record<string, boolean>>("log-columns", {});

export const isShown = (id: string) => logColumnPrefs.value[id] !== false;

export function setShown(id: string, shown: boolean): void {
  logColumnPrefs.value = { ...logColumnPrefs.value, [id]: shown };
}

export const showAllColumns = () => {
  logColumnPrefs.value = {};
};
