import { Trans } from "@lingui/react/macro";

/** Shown on a screen whose platform switch (drawing, tasks, data export) is off. */
export function FeatureOff() {
  return (
    <div role="alert" className="alert alert-warning" data-testid="feature-off">
      <Trans>This feature is not enabled by the administrator.</Trans>
    </div>
  );
}
