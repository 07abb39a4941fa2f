import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { currentUser, isAdmin } from "../state/user";

/** Screens that need a user record held locally; without one, the sign-in screen. */
export function RequireLogin({ children }: { children: ReactNode }) {
  useSignals();
  if (!currentUser.value) return <Redirect to="/login" replace />;
  return <>{children}</>;
}

/** Admin screens: signed in with role >= 10 (the server checks again on every call). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  useSignals();
  if (!currentUser.value) return <Redirect to="/login" replace />;
  if (!isAdmin.value) {
    return (
      <div role="alert" className="alert alert-warning" data-testid="forbidden">
        <Trans>You do not have permission to view this page.</Trans>
      </div>
    );
  }
  return <>{children}</>;
}
