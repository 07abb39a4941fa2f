import { PAGE_SIZE_CHOICES, PAGE_SIZE_DEFAULT } from "../../shared/constants";
import { persistedSignal } from "./persisted";

export const pageSize = persistedSignal<number>("page-size", PAGE_SIZE_DEFAULT);
if (!(PAGE_SIZE_CHOICES as readonly number[]).includes(pageSize.value)) pageSize.value = PAGE_SIZE_DEFAULT;
