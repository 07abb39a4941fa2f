import type { ReactNode } from "react";

/** The centred card of the sign-in, registration, reset and setup screens. */
export function AuthCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="flex justify-center py-8 max-tablet:py-2">
      <div className="card bg-base-100 shadow-md w-full max-w-md">
        <div className="card-body">
          <h1 className="card-title text-2xl justify-center mb-2">{title}</h1>
          {children}
        </div>
      </div>
    </div>
  );
}
