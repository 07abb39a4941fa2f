import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api, query } from "../../../api";
import { TextField } from "../../../components/form/TextField";
import { toast } from "../../../state/toasts";

/** A date input's value (local time) for the day one month before today. */
function monthAgo(): string {
  const d = new Date();
  d.setMonth(d.getMonth() - 1);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Deletes logs older than a date (DELETE /api/log/?target_timestamp=unix seconds). */
export function LogCleanup() {
  const { t } = useLingui();
  const [date, setDate] = useState(monthAgo);
  const clean = async () => {
    if (!date) return toast.error(t`Please choose a date`);
    const seconds = Math.floor(new Date(`${date}T00:00:00`).getTime() / 1000);
    const reply = await api.delete<number>(`/api/log/${query({ target_timestamp: seconds })}`, { quiet: true });
    if (!reply.ok) {
      const reason = reply.message;
      return toast.error(t`Log cleanup failed: ${reason}`);
    }
    const count = reply.data;
    toast.success(t`${count} logs cleaned`);
  };
  return (
    <div className="flex flex-wrap items-end gap-2 mt-3" data-testid="log-cleanup">
      <TextField label={t`Delete logs before`} name="log-cleanup-date" type="date" value={date} onChange={setDate} />
      <button type="button" className="btn btn-warning btn-sm mb-1" onClick={clean}>
        <Trans>Clean up logs</Trans>
      </button>
    </div>
  );
}
