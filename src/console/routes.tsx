import { useSignals } from "@preact/signals-react/runtime";
import { Fragment, lazy, Suspense, type ComponentType, type ReactNode } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { RequireAdmin, RequireLogin } from "./components/Guards";
import { About } from "./pages/About";
import { Login } from "./pages/auth/Login";
import { OAuthCallback } from "./pages/auth/OAuthCallback";
import { Register } from "./pages/auth/Register";
import { ResetConfirm } from "./pages/auth/ResetConfirm";
import { ResetRequest } from "./pages/auth/ResetRequest";
import { Setup } from "./pages/auth/Setup";
import { Home } from "./pages/Home";
import { NotFound } from "./pages/NotFound";
import { platform } from "./state/status";

const SettingsPage = lazy(() => import("./pages/setting/SettingsPage"));
const UsersPage = lazy(() => import("./pages/user/UsersPage"));
const EditUserPage = lazy(() => import("./pages/user/EditUserPage"));

const guarded = (Guard: ComponentType<{ children: ReactNode }>) => (Screen: ComponentType) => () => (
  <Guard>
    <Suspense>
      <Screen />
    </Suspense>
  </Guard>
);
const signedIn = guarded(RequireLogin);
const adminOnly = guarded(RequireAdmin);
/** Public screens loaded on first visit. */
const open = guarded(Fragment);

const Settings = signedIn(SettingsPage);
const Users = adminOnly(UsersPage);
const EditUser = adminOnly(EditUserPage);

/** The routing table (relay-and-console §2); the order matters only where patterns overlap. */
const ROUTES: [string, ComponentType][] = [
  ["/", Home],
  ["/login", Login],
  ["/register", Register],
  ["/reset", ResetRequest],
  ["/user/reset", ResetConfirm],
  ["/setup", Setup],
  ["/oauth/:provider/:mode?", OAuthCallback],
  ["/about", About],
  ["/pricing", open(lazy(() => import("./pages/pricing/PricingPage")))],
  ["/chat/:id?", open(lazy(() => import("./pages/chat/ChatPage")))],
  ["/chat2link", open(lazy(() => import("./pages/chat/Chat2Link")))],
  ["/topup", signedIn(lazy(() => import("./pages/topup/TopUpPage")))],
  ["/log", signedIn(lazy(() => import("./pages/log/LogPage")))],
  ["/midjourney", signedIn(lazy(() => import("./pages/records/MidjourneyPage")))],
  ["/task", signedIn(lazy(() => import("./pages/records/TaskPage")))],
  ["/playground", signedIn(lazy(() => import("./pages/playground/PlaygroundPage")))],
  ["/detail", signedIn(lazy(() => import("./pages/detail/DetailPage")))],
  ["/channel", adminOnly(lazy(() => import("./pages/channel/ChannelsPage")))],
  ["/channel/add", adminOnly(lazy(() => import("./pages/channel/EditChannelPage")))],
  ["/channel/edit/:id", adminOnly(lazy(() => import("./pages/channel/EditChannelPage")))],
  ["/token", signedIn(lazy(() => import("./pages/token/TokensPage")))],
  ["/redemption", adminOnly(lazy(() => import("./pages/redemption/RedemptionsPage")))],
  ["/setting", Settings],
  ["/user", Users],
  ["/user/edit/:id", EditUser],
];

/** Until the first super administrator exists, every screen but /setup leads there. */
function SetupGate() {
  useSignals();
  const [location] = useLocation();
  if (platform.value?.setup === false && location !== "/setup") return <Redirect to="/setup" replace />;
  return null;
}

export function Routes() {
  return (
    <>
      <SetupGate />
      <Switch>
        {ROUTES.map(([path, screen]) => (
          <Route key={path} path={path} component={screen} />
        ))}
        <Route path="/user/edit">
          <Redirect to="/setting?tab=personal" replace />
        </Route>
        <Route component={NotFound} />
      </Switch>
    </>
  );
}
