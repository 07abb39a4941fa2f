import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";

/** A titled card around a chart; "No data" instead of an empty chart. */
export function ChartCard({
  title,
  empty,
  children,
  testId,
}: {
  title: string;
  empty: boolean;
  children: ReactNode;
  testId: string;
}) {
  return (
    <section className="card bg-base-100 shadow min-w-0" data-testid={testId}>
      <div className="card-body p-4">
        <h2 className="card-title text-base">{title}</h2>
        {empty ? (
          <p className="text-center opacity-60 py-16">
            <Trans>No data</Trans>
          </p>
        ) : (
          children
        )}
      </div>
    </section>
  );
}
