import { Trans, useLingui } from "@lingui/react/macro";
import { type LucideIcon, Pencil, Power, PowerOff, ShieldMinus, ShieldPlus, Trash2 } from "lucide-react";
import { useState } from "react";
import type { UserView } from "../../../shared/views/user";
import { api } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { IconLabel } from "../../components/IconLabel";
import { toast } from "../../state/toasts";
import { offeredActions, type ManageAction } from "./admin-user";
import { useUserLabels } from "./use-user-labels";

const ACTION_ICONS: Record<ManageAction, LucideIcon> = {
  promote: ShieldPlus,
  demote: ShieldMinus,
  enable: Power,
  disable: PowerOff,
  delete: Trash2,
};

interface UserActionsProps {
  user: UserView;
  /** The row after an action: status and role from the reply, DeletedAt after delete. */
  onChanged: (user: UserView) => void;
  onEdit: (user: UserView) => void;
}

export function UserActions({ user, onChanged, onEdit }: UserActionsProps) {
  const { t } = useLingui();
  const labels = useUserLabels();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const actions = offeredActions(user);
  if (actions.length === 0) return null;

  const manage = async (action: ManageAction) => {
    const reply = await api.post<{ status: number; role: number }>("/api/user/manage", { id: user.id, action });
    if (!reply.ok) return;
    toast.success(t`Done`);
    const deletedAt = action === "delete" ? Math.floor(Date.now() / 1000) : user.DeletedAt;
    onChanged({ ...user, status: reply.data.status, role: reply.data.role, DeletedAt: deletedAt });
  };

  return (
    <div className="flex flex-wrap gap-1" data-testid={`actions-${user.username}`}>
      {actions.map((action) => (
        <button
          key={action}
          type="button"
          data-action={action}
          className={`btn btn-xs ${action === "delete" ? "btn-error" : action === "disable" ? "btn-warning" : ""}`}
          onClick={() => (action === "delete" ? setConfirmDelete(true) : manage(action))}
        >
          <IconLabel icon={ACTION_ICONS[action]}>{labels.action(action)}</IconLabel>
        </button>
      ))}
      <button type="button" className="btn btn-xs btn-primary" data-action="edit" onClick={() => onEdit(user)}>
        <IconLabel icon={Pencil}>
          <Trans>Edit</Trans>
        </IconLabel>
      </button>
      {confirmDelete && (
        <ConfirmDialog
          danger
          title={<Trans>Delete user</Trans>}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void manage("delete");
          }}
        >
          <Trans>Delete {user.username}? This cannot be undone.</Trans>
        </ConfirmDialog>
      )}
    </div>
  );
}
