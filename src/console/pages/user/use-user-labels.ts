import { useLingui } from "@lingui/react/macro";
import { Role, UserStatus } from "../../../shared/constants";
import type { UserView } from "../../../shared/views/user";
import type { ManageAction } from "./admin-user";

export function useUserLabels() {
  const { t } = useLingui();
  return {
    role(role: number): string {
      if (role === Role.Common) return t`Ordinary user`;
      if (role === Role.Admin) return t`Administrator`;
      if (role === Role.Root) return t`Super administrator`;
      return t`Unknown role`;
    },
    status(user: Pick<UserView, "status" | "DeletedAt">): string {
      if (user.DeletedAt) return t`Deleted`;
      if (user.status === UserStatus.Enabled) return t`Active`;
      if (user.status === UserStatus.Disabled) return t`Banned`;
      return t`Unknown status`;
    },
    action(action: ManageAction): string {
      return {
        promote: t`Promote`,
        demote: t`Demote`,
        enable: t`Enable`,
        disable: t`Disable`,
        delete: t`Delete`,
      }[action];
    },
  };
}
