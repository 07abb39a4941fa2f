import { useLingui } from "@lingui/react/macro";
import { type ReactNode, useEffect, useRef, useState } from "react";

interface Section {
  key: string;
  title: string;
  element: HTMLElement;
}

/** A section is current once its top has passed this share of the viewport's height (from the top). */
const CURRENT_LINE = 0.3;

/** The cards (top-level `section.card` with a test id and an h2) under `root`, in page order. */
function sectionsIn(root: HTMLElement): Section[] {
  return [...root.querySelectorAll<HTMLElement>("section.card[data-testid]")]
    .filter((element) => !element.parentElement?.closest("section.card"))
    .map((element) => ({
      key: element.dataset.testid!,
      title: element.querySelector("h2")?.textContent?.trim() ?? "",
      element,
    }));
}

/** The last section whose top is above the current line; the first when none is yet. */
function currentOf(sections: Section[]): string | undefined {
  const line = window.innerHeight * CURRENT_LINE;
  let current = sections[0]?.key;
  for (const s of sections) if (s.element.getBoundingClientRect().top <= line) current = s.key;
  return current;
}

/**
 * The content with, on wide screens, a side index of its cards: a click scrolls to the card, and the card being
 * read is highlighted as the page scrolls (an IntersectionObserver reports cards crossing the top band).
 */
export function SectionIndex({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const content = useRef<HTMLDivElement>(null);
  const [sections, setSections] = useState<Section[]>([]);
  const [active, setActive] = useState<string>();
  // A clicked entry stays highlighted until the person scrolls themselves (a last short card may never reach the line).
  const chosen = useRef<string | undefined>(undefined);

  useEffect(() => {
    const root = content.current!;
    const read = () =>
      setSections((before) => {
        const now = sectionsIn(root);
        const same =
          now.length === before.length &&
          now.every((s, i) => s.element === before[i]!.element && s.title === before[i]!.title);
        return same ? before : now;
      });
    read();
    const mutations = new MutationObserver(read);
    mutations.observe(root, { childList: true, subtree: true });
    return () => mutations.disconnect();
  }, []);

  useEffect(() => {
    if (sections.length === 0) return;
    const update = () => {
      if (chosen.current === undefined) setActive(currentOf(sections));
    };
    const crossings = new IntersectionObserver(update, {
      rootMargin: `0px 0px -${100 - CURRENT_LINE * 100}% 0px`,
    });
    for (const s of sections) crossings.observe(s.element);
    const release = () => {
      chosen.current = undefined;
    };
    const userScrolls = ["wheel", "touchmove", "keydown"] as const;
    for (const type of userScrolls) window.addEventListener(type, release, { passive: true });
    update();
    return () => {
      crossings.disconnect();
      for (const type of userScrolls) window.removeEventListener(type, release);
    };
  }, [sections]);

  const go = (s: Section) => {
    chosen.current = s.key;
    setActive(s.key);
    s.element.scrollIntoView({ block: "start" });
  };

  return (
    <div className="flex gap-4 items-start">
      <div ref={content} className="flex-1 min-w-0">
        {children}
      </div>
      {sections.length > 1 && (
        <nav
          aria-label={t`Sections`}
          className="max-lg:hidden sticky top-0 w-52 shrink-0 max-h-[calc(100vh-6rem)] overflow-auto"
          data-testid="section-index"
        >
          <ul className="menu menu-sm bg-base-100 rounded-box shadow w-full">
            {sections.map((s) => (
              <li key={s.key}>
                <button
                  type="button"
                  data-section={s.key}
                  aria-current={s.key === active ? "location" : undefined}
                  className={s.key === active ? "menu-active" : ""}
                  onClick={() => go(s)}
                >
                  {s.title}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}
