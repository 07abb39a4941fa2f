import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { sidebarOpen } from "../../state/layout";
import { currentUser } from "../../state/user";
import { ManualCopyDialog } from "../ManualCopyDialog";
import { Toasts } from "../Toasts";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { SideMenu } from "./SideMenu";

/** Header, the side menu for a signed-in person, scrolling content with the footer, toasts. */
export function Layout({ children }: { children: ReactNode }) {
  useSignals();
  return (
    <div className="flex flex-col h-full">
      <Header />
      <div className="flex flex-1 min-h-0">
        {currentUser.value && sidebarOpen.value && <SideMenu />}
        <main className="flex-1 min-w-0 overflow-auto flex flex-col" data-testid="content">
          <div className="flex-1 p-4 max-tablet:p-2">{children}</div>
          <Footer />
        </main>
      </div>
      <Toasts />
      <ManualCopyDialog />
    </div>
  );
}
