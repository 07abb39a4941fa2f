import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { Link } from "wouter";
import { toggleSidebar } from "../../state/layout";
import { logoUrl, systemName } from "../../state/status";
import { currentUser } from "../../state/user";
import { LanguageSwitch } from "./LanguageSwitch";
import { ThemeToggle } from "./ThemeToggle";
import { UserMenu } from "./UserMenu";

function useTopLinks() {
  const { t } = useLingui();
  return [
    { href: "/", label: t`Home` },
    { href: "/token", label: t`Console` },
    { href: "/pricing", label: t`Pricing` },
    { href: "/about", label: t`About` },
  ];
}

export function Header() {
  useSignals();
  const { t } = useLingui();
  const links = useTopLinks();
  return (
    <header className="navbar bg-base-100 border-b border-base-300 min-h-16 px-3 gap-2 shrink-0">
      {currentUser.value && (
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-square"
          aria-label={t`Toggle side menu`}
          data-testid="sidebar-toggle"
          onClick={toggleSidebar}
        >
          ☰
        </button>
      )}
      <Link href="/" className="flex items-center gap-2 font-bold text-lg shrink-0" data-testid="brand">
        <img src={logoUrl.value} alt="" className="w-8 h-8 rounded" />
        <span className="max-tablet:hidden">{systemName.value}</span>
      </Link>
      <nav className="flex-1 flex gap-1 max-tablet:hidden" aria-label="top navigation">
        {links.map((l) => (
          <Link key={l.href} href={l.href} className="btn btn-ghost btn-sm">
            {l.label}
          </Link>
        ))}
      </nav>
      <div className="dropdown tablet:hidden flex-1">
        <button type="button" tabIndex={0} className="btn btn-ghost btn-sm whitespace-nowrap" data-testid="mobile-nav">
          {t`Menu`}
        </button>
        <ul tabIndex={0} className="dropdown-content menu bg-base-100 rounded-box z-50 w-40 p-2 shadow">
          {links.map((l) => (
            <li key={l.href}>
              <Link href={l.href}>{l.label}</Link>
            </li>
          ))}
        </ul>
      </div>
      <ThemeToggle />
      <LanguageSwitch />
      <UserMenu />
    </header>
  );
}
