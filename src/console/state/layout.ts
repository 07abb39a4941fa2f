import { computed, signal } from "@preact/signals-react";
import { platform } from "./status";

const MOBILE_QUERY = matchMedia("(max-width: 600px)");

/** The spec's mobile layout: width 600 or less. */
export const isMobile = signal(MOBILE_QUERY.matches);
MOBILE_QUERY.addEventListener("change", (e) => {
  isMobile.value = e.matches;
  sidebarChoice.value = null;
});

/** null until the person toggles it: then the site's default_collapse_sidebar (closed on a phone) applies. */
const sidebarChoice = signal<boolean | null>(null);

export const sidebarOpen = computed(() => {
  if (sidebarChoice.value !== null) return sidebarChoice.value;
  return !isMobile.value && !platform.value?.default_collapse_sidebar;
});

export const toggleSidebar = () => {
  sidebarChoice.value = !sidebarOpen.value;
};

export const closeSidebarOnMobile = () => {
  if (isMobile.value) sidebarChoice.value = false;
};
