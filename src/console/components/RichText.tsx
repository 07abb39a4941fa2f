import { markdownToSafeHtml, sanitizeHtml } from "../rich-text";

interface RichTextProps {
  text: string;
  format?: "markdown" | "html";
  className?: string;
}

/** Admin-written content, sanitized before it reaches the DOM. */
export function RichText({ text, format = "markdown", className = "" }: RichTextProps) {
  const html = format === "html" ? sanitizeHtml(text) : markdownToSafeHtml(text);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is DOMPurify's output (sanitizeHtml / markdownToSafeHtml)
  return <div className={`rich-text ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
