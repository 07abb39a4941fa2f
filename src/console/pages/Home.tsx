import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { RichText } from "../components/RichText";
import { SiteContent } from "../components/SiteContent";
import { platform, systemName } from "../state/status";
import { currentUser } from "../state/user";
import { UserHome } from "./home/UserHome";
import { useApiData } from "../use-api-data";

function PlatformSummary() {
  useSignals();
  const { t, i18n } = useLingui();
  const status = platform.value;
  if (!status) return null;
  const onOff = (on: boolean) => (on ? t`on` : t`off`);
  const rows: [string, string][] = [
    [t`Version`, status.version],
    [t`Running since`, new Date(status.start_time * 1000).toLocaleString(i18n.locale)],
    [t`Email verification`, onOff(status.email_verification)],
    [t`GitHub sign-in`, onOff(status.github_oauth)],
    [t`WeChat sign-in`, onOff(status.wechat_login)],
    [t`Turnstile human check`, onOff(status.turnstile_check)],
  ];
  return (
    <div className="card bg-base-100 shadow" data-testid="platform-summary">
      <div className="card-body">
        <h1 className="card-title text-2xl">
          <Trans>Welcome to {systemName.value}</Trans>
        </h1>
        <table className="table table-sm max-w-xl">
          <tbody>
            {rows.map(([name, value]) => (
              <tr key={name}>
                <th>{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The home: the signed-in person's own (issue #22); for visitors the spec's notice and custom content or status. */
export function Home() {
  useSignals();
  const notice = useApiData<string>("/api/notice", { quiet: true });
  return (
    <div className="flex flex-col gap-4" data-testid="home">
      {notice.data && (
        <div role="status" className="alert alert-info" data-testid="notice">
          <RichText text={notice.data} />
        </div>
      )}
      {currentUser.value ? <UserHome /> : <VisitorHome />}
    </div>
  );
}

function VisitorHome() {
  const { t } = useLingui();
  const home = useApiData<string>("/api/home_page_content", { quiet: true });
  return home.loaded ? <SiteContent text={home.data ?? ""} title={t`Home`} fallback={<PlatformSummary />} /> : null;
}
