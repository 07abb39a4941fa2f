import { computed } from "@preact/signals-react";
import { Role } from "../../shared/constants";
import { persistedSignal } from "./persisted";

/** The record the login reply gives; held locally, it means "signed in" to the console. */
export interface LocalUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

export const currentUser = persistedSignal<LocalUser | null>("user", null);
export const isAdmin = computed(() => (currentUser.value?.role ?? 0) >= Role.Admin);
export const isRoot = computed(() => (currentUser.value?.role ?? 0) >= Role.Root);

/** Keys that belong to the signed-in person; theme, language and page size stay. */
const PERSONAL_KEYS = ["user", "aff"];

export function forgetUser(): void {
  currentUser.value = null;
  for (const key of PERSONAL_KEYS) localStorage.removeItem(key);
}
