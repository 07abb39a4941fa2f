import { useState } from "react";

/**
 * The filters of a list screen: what the form shows (`draft`) and what the list was last searched with
 * (`applied`). `field(name)` binds one input; `search(list)` shows the first page of the draft's results,
 * and searching again with unchanged filters reloads the list.
 */
export function useFilters<F extends Record<string, string>>(initial: () => F) {
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(draft);
  const field = (name: keyof F & string) => ({
    name,
    value: draft[name],
    onChange: (value: string) => setDraft((d) => ({ ...d, [name]: value })),
  });
  const search = (list: { firstPage: () => void; reload: () => unknown }) => {
    list.firstPage();
    if (draft === applied) void list.reload();
    else setApplied(draft);
  };
  return { applied, field, search };
}
