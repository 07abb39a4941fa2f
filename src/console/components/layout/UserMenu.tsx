import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { Link, useLocation } from "wouter";
import { api } from "../../api";
import { currentUser, forgetUser } from "../../state/user";

/** The signed-in person's menu, or the sign-in and registration links for a visitor. */
export function UserMenu() {
  useSignals();
  const [, navigate] = useLocation();
  const user = currentUser.value;
  if (!user) {
    return (
      <div className="flex gap-1">
        <Link href="/login" className="btn btn-sm btn-ghost">
          <Trans>Sign in</Trans>
        </Link>
        <Link href="/register" className="btn btn-sm btn-primary max-tablet:hidden">
          <Trans>Sign up</Trans>
        </Link>
      </div>
    );
  }
  const logout = async () => {
    await api.post("/api/user/logout", {}, { quiet: true });
    forgetUser();
    navigate("/login");
  };
  return (
    <div className="dropdown dropdown-end">
      <button type="button" tabIndex={0} className="btn btn-sm btn-ghost" data-testid="user-menu">
        <span className="max-w-28 truncate">{user.display_name || user.username}</span>
      </button>
      <ul tabIndex={0} className="dropdown-content menu bg-base-100 rounded-box z-50 w-44 p-2 shadow">
        <li>
          <Link href="/setting?tab=personal">
            <Trans>Personal settings</Trans>
          </Link>
        </li>
        <li>
          <button type="button" onClick={logout} data-testid="logout">
            <Trans>Sign out</Trans>
          </button>
        </li>
      </ul>
    </div>
  );
}
