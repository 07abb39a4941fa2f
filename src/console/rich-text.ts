import DOMPurify from "dompurify";
import { Marked } from "marked";

/** Markdown with raw HTML off: HTML in the source is shown as text, never interpreted. */
const markdown = new Marked({
  async: false,
  gfm: true,
  breaks: true,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Admin-written HTML (the footer), through DOMPurify's allow-list. */
export const sanitizeHtml = (html: string): string => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });

/** Admin-written Markdown (notice, home, about), rendered then sanitized. */
export const markdownToSafeHtml = (text: string): string => sanitizeHtml(markdown.parse(text) as string);

/** Home and about may name a whole page instead of holding text. */
export const isPageAddress = (text: string): boolean => /^https:\/\/\S+$/.test(text.trim());
