import { I18nProvider } from "@lingui/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { Layout } from "./components/layout/Layout";
import { i18n } from "./i18n";
import { Routes } from "./routes";
import { logoUrl, systemName } from "./state/status";

function useDocumentBranding() {
  useSignals();
  const name = systemName.value;
  const logo = logoUrl.value;
  useEffect(() => {
    document.title = name;
    document.querySelector<HTMLLinkElement>("link[rel=icon]")?.setAttribute("href", logo);
  }, [name, logo]);
}

export function App() {
  useSignals();
  useDocumentBranding();
  return (
    <I18nProvider i18n={i18n}>
      <Layout>
        <Routes />
      </Layout>
    </I18nProvider>
  );
}
