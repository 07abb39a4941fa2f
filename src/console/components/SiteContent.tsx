import type { ReactNode } from "react";
import { isPageAddress } from "../rich-text";
import { RichText } from "./RichText";

interface SiteContentProps {
  text: string;
  title: string;
  fallback: ReactNode;
}

/** Home page or about text: a sandboxed frame when it is an https address, else sanitized Markdown. */
export function SiteContent({ text, title, fallback }: SiteContentProps) {
  if (!text.trim()) return <>{fallback}</>;
  if (isPageAddress(text)) {
    return (
      <iframe
        title={title}
        src={text.trim()}
        sandbox="allow-scripts allow-popups allow-forms"
        className="w-full h-[80vh] border-0"
      />
    );
  }
  return <RichText text={text} className="card bg-base-100 shadow p-6" />;
}
