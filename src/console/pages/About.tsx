import { Trans, useLingui } from "@lingui/react/macro";
import { SiteContent } from "../components/SiteContent";
import { useApiData } from "../use-api-data";

export function About() {
  const { t } = useLingui();
  const about = useApiData<string>("/api/about", { quiet: true });
  if (!about.loaded) return null;
  const fallback = (
    <div className="card bg-base-100 shadow">
      <div className="card-body">
        <h1 className="card-title">
          <Trans>About</Trans>
        </h1>
        <p>
          <Trans>The administrator has not written an about page yet. It can be set in Settings, Other.</Trans>
        </p>
      </div>
    </div>
  );
  return (
    <div data-testid="about">
      <SiteContent text={about.data ?? ""} title={t`About`} fallback={fallback} />
    </div>
  );
}
