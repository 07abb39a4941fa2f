import type { ReactNode } from "react";

/** A titled card of the personal tab. */
export function SettingCard({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="card bg-base-100 shadow" data-testid={testId}>
      <div className="card-body gap-2">
        <h2 className="card-title text-base">{title}</h2>
        {children}
      </div>
    </section>
  );
}
