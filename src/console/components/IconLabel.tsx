import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A row button's icon and text; on a phone only the icon shows (the text stays the button's accessible name). */
export const IconLabel = ({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) => (
  <>
    <Icon size={14} aria-hidden />
    <span className="max-tablet:sr-only">{children}</span>
  </>
);
