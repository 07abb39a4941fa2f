import { Trans } from "@lingui/react/macro";
import { Pencil, Power, PowerOff, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { ConfirmButton } from "./ConfirmButton";
import { IconLabel } from "./IconLabel";

/** Disable when enabled, else enable. */
export const StatusToggle = ({ enabled, onClick }: { enabled: boolean; onClick: () => void }) => (
  <button
    type="button"
    className={`btn btn-xs ${enabled ? "btn-warning" : "btn-success"}`}
    data-action={enabled ? "disable" : "enable"}
    onClick={onClick}
  >
    {enabled ? (
      <IconLabel icon={PowerOff}>
        <Trans>Disable</Trans>
      </IconLabel>
    ) : (
      <IconLabel icon={Power}>
        <Trans>Enable</Trans>
      </IconLabel>
    )}
  </button>
);

export const EditButton = ({ onClick }: { onClick: () => void }) => (
  <button type="button" className="btn btn-xs btn-primary" data-action="edit" onClick={onClick}>
    <IconLabel icon={Pencil}>
      <Trans>Edit</Trans>
    </IconLabel>
  </button>
);

/** Delete, after the person confirms `question`. */
export const DeleteButton = ({
  title,
  question,
  onConfirm,
}: {
  title: ReactNode;
  question: ReactNode;
  onConfirm: () => void;
}) => (
  <ConfirmButton
    action="delete"
    danger
    className="btn btn-xs btn-error"
    title={title}
    question={question}
    onConfirm={onConfirm}
  >
    <IconLabel icon={Trash2}>
      <Trans>Delete</Trans>
    </IconLabel>
  </ConfirmButton>
);
