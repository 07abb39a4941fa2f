import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState, type FormEvent } from "react";
import type { TokenView } from "../../../shared/views/token";
import { api } from "../../api";
import { SubmitOrCancel } from "../../components/form/FormButtons";
import { TextArea } from "../../components/form/TextArea";
import { TextField } from "../../components/form/TextField";
import { SidePanel } from "../../components/SidePanel";
import { platform } from "../../state/status";
import { toast } from "../../state/toasts";
import {
  newTokenDraft,
  tokenBodyOf,
  tokenDraftOf,
  tokenProblem,
  type TokenDraft,
  type TokenProblem,
} from "./token-form";
import { RateLimitFields } from "../../components/form/RateLimitFields";
import { CountField, ExpiryField, GroupField, ModelLimitsField, QuotaField } from "./TokenFields";

/** The drawer that creates tokens (no token given) or edits one. */
export function TokenPanel({
  token,
  onClose,
  onSaved,
}: {
  token?: TokenView;
  onClose: () => void;
  onSaved: () => void;
}) {
  useSignals();
  const { t } = useLingui();
  const creating = !token;
  const autoGroup = (platform.value as { default_use_auto_group?: boolean } | null)?.default_use_auto_group;
  const [draft, setDraft] = useState<TokenDraft>(() =>
    token ? tokenDraftOf(token) : newTokenDraft(autoGroup ? "auto" : ""),
  );
  const set =
    <K extends keyof TokenDraft>(key: K) =>
    (value: TokenDraft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const problems: Record<TokenProblem, string> = {
    name: t`Please enter a name`,
    expiry: t`Invalid expiry time format!`,
    quota: t`The quota must be an integer`,
    limits: t`Limits per minute must be whole numbers (0 for none)`,
    count: t`The count must be a positive integer`,
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = tokenProblem(draft, creating);
    if (problem) return toast.error(problems[problem]);
    const body = tokenBodyOf(draft, creating);
    const reply = creating
      ? await api.post<{ ids: number[] }>("/api/token/", body)
      : await api.put("/api/token/", { id: token.id, ...body });
    if (!reply.ok) return;
    toast.success(creating ? t`Token created` : t`Token updated`);
    onSaved();
  };
  const props = { draft, set };
  return (
    <SidePanel title={creating ? <Trans>Add token</Trans> : <Trans>Edit token</Trans>} onClose={onClose}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-1" data-testid="token-form">
        <TextField label={t`Name`} name="name" value={draft.name} onChange={set("name")} />
        <GroupField {...props} />
        <ExpiryField {...props} />
        <QuotaField {...props} />
        <ModelLimitsField {...props} />
        <TextArea
          label={t`Allowed IPs`}
          name="allow_ips"
          value={draft.allow_ips}
          onChange={set("allow_ips")}
          rows={3}
          monospace
          hint={t`One IP address or CIDR range per line; blank allows every address`}
        />
        <RateLimitFields
          rpm={draft.rpm_limit}
          tpm={draft.tpm_limit}
          onRpm={set("rpm_limit")}
          onTpm={set("tpm_limit")}
          zeroMeans={t`0: no limit`}
        />
        {creating && <CountField {...props} />}
        <SubmitOrCancel submit={<Trans>Submit</Trans>} onCancel={onClose} />
      </form>
    </SidePanel>
  );
}
