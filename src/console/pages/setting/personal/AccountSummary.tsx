import { Trans, useLingui } from "@lingui/react/macro";
import { Role } from "../../../../shared/constants";
import { showQuota } from "../../../state/status";
import type { SelfUser } from "./self-user";

/** Balance, used quota and request count, with who the account is. */
export function AccountSummary({ user }: { user: SelfUser }) {
  const { t } = useLingui();
  const stats: [string, string, string][] = [
    ["balance", t`Balance`, showQuota(user.quota)],
    ["used", t`Used quota`, showQuota(user.used_quota)],
    ["requests", t`Requests`, String(user.request_count)],
  ];
  return (
    <section className="card bg-base-100 shadow" data-testid="account-summary">
      <div className="card-body">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="card-title">{user.display_name || user.username}</h2>
          <span className="badge">{user.role >= Role.Root ? t`Administrator` : t`Ordinary user`}</span>
          <span className="badge badge-outline">
            <Trans>Group {user.group}</Trans>
          </span>
        </div>
        <div className="stats stats-vertical tablet:stats-horizontal bg-base-200">
          {stats.map(([id, title, value]) => (
            <div key={id} className="stat" data-testid={`stat-${id}`}>
              <div className="stat-title">{title}</div>
              <div className="stat-value text-2xl">{value}</div>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
