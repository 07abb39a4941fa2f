import { Trans, useLingui } from "@lingui/react/macro";
import { Modal } from "../../components/Modal";
import { showQuota } from "../../state/status";
import { useApiData } from "../../use-api-data";
import { Facts } from "./Facts";

interface UserInfo {
  username: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
}

/** An admin's popup about the user of a log row (GET /api/user/{id}). */
export function UserInfoDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useLingui();
  const user = useApiData<UserInfo>(`/api/user/${userId}`);
  const info = user.data;
  const rows: [string, string][] = info
    ? [
        [t`Username`, info.username],
        [t`Balance`, showQuota(info.quota)],
        [t`Used quota`, showQuota(info.used_quota)],
        [t`Requests`, String(info.request_count)],
        [t`Group`, info.group],
      ]
    : [];
  return (
    <Modal title={<Trans>User information</Trans>} onClose={onClose}>
      {!user.loaded && <span className="loading loading-spinner" />}
      <Facts rows={rows} testId="user-info-table" />
    </Modal>
  );
}
