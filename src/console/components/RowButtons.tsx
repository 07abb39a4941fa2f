import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { ConfirmButton } from "./ConfirmButton";

/** Disable when enabled, else enable. */
export const StatusToggle = ({ enabled, onClick }: { enabled: boolean; onClick: () => void }) => (
  <button
    type="button"
    className={`btn btn-xs ${enabled ? "btn-warning" : "btn-success"}`}
    data-action={enabled ? "disable" : "enable"}
    onClick={onClick}
  >
    {enabled ? <Trans>Disable</Trans> : <Trans>Enable</Trans>}
  </button>
);

export const EditButton = ({ onClick }: { onClick: () => void }) => (
  <button type="button" className="btn btn-xs btn-primary" data-action="edit" onClick={onClick}>
    <Trans>Edit</Trans>
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
    <Trans>Delete</Trans>
  </ConfirmButton>
);
