import { t } from "@lingui/core/macro";
import { useCallback, useEffect, useState } from "react";
import { api } from "../../../api";
import { toast } from "../../../state/toasts";
import type { OptionEntry, OptionKey } from "../../../../shared/option-keys";
import type { OptionValues } from "./field-spec";

/** Every site option as last loaded (GET /api/option/), and a saver that sends one PUT per changed key. */
export function useOptions() {
  const [values, setValues] = useState<OptionValues | null>(null);
  const reload = useCallback(async () => {
    const reply = await api.get<OptionEntry[]>("/api/option/");
    if (reply.ok) setValues(Object.fromEntries(reply.data.map((o) => [o.key, o.value])));
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  /** Answers whether everything was saved; reports nothing-changed, partial and total failure itself. */
  const save = useCallback(
    async (changes: OptionValues, saved: string): Promise<boolean> => {
      const keys = Object.keys(changes) as OptionKey[];
      if (keys.length === 0) {
        toast.info(t`Nothing changed`);
        return false;
      }
      const results = await Promise.all(
        keys.map((key) =>
          api.put("/api/option/", { key, value: changes[key]! } satisfies OptionEntry, { quiet: true }),
        ),
      );
      const failures = results.filter((r) => !r.ok);
      await reload();
      if (failures.length === 0) toast.success(saved);
      else {
        const detail = failures.map((f) => f.message).join("; ");
        toast.error(
          failures.length === keys.length
            ? t`Save failed, please retry: ${detail}`
            : t`Partial save failed, please retry: ${detail}`,
        );
      }
      return failures.length === 0;
    },
    [reload],
  );
  return { values, reload, save };
}

export type Options = ReturnType<typeof useOptions>;
