import type { Key } from "ink";
import { useReducer, useRef } from "react";
import { usePoll } from "./poll";

export interface PageOf<T> {
  items: T[];
  total: number;
}

export interface PagedList<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
  /** The highlighted row's index on this page. */
  cursor: number;
  /**
   * The highlighted item as of the last key, even one handled in the same read (a key typed ahead goes
   * with the row it was typed on); undefined while its page is still loading.
   */
  selected: () => T | undefined;
  error?: string;
  reload: () => void;
  /** Moves with ↑↓ (on to the next or previous page at the ends), ←→ or PgUp/PgDn (a page), Home/End; answers whether the key was one of these. */
  onKey: (key: Key) => boolean;
}

interface Place {
  filterKey: string;
  page: number;
  cursor: number;
}

interface Loaded<T> extends PageOf<T> {
  filterKey: string;
  page: number;
}

/**
 * A service listing shown a page at a time, with a highlighted row. A new `filterKey` starts again at
 * the first row; `everyMs` reloads the page periodically. The place is kept in a ref, so several keys
 * in one read (arrows held down over a slow link) each move from where the previous one left off.
 */
export function usePagedList<T>(
  load: (page: number, pageSize: number) => Promise<PageOf<T>>,
  filterKey: string,
  pageSize: number,
  everyMs = 0,
): PagedList<T> {
  const place = useRef<Place>({ filterKey, page: 1, cursor: 0 });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  if (place.current.filterKey !== filterKey) place.current = { filterKey, page: 1, cursor: 0 };
  const { page } = place.current;
  const polled = usePoll<Loaded<T>>(
    async () => ({ ...(await load(page, pageSize)), filterKey, page }),
    `${filterKey}\n${page}\n${pageSize}`,
    everyMs,
  );
  const loaded = useRef(polled.data);
  loaded.current = polled.data;

  const items = polled.data?.items ?? [];
  const total = polled.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const clamp = (cursor: number, length: number) => Math.max(0, Math.min(cursor, length - 1));
  const go = (nextPage: number, cursor: number) => {
    place.current = { filterKey, page: nextPage, cursor };
    rerender();
  };

  const onKey = (key: Key): boolean => {
    const { page: at, cursor: wanted } = place.current;
    const length = loaded.current?.page === at ? loaded.current.items.length : 0;
    const cursor = clamp(wanted, length);
    if (key.upArrow) {
      if (cursor > 0) go(at, cursor - 1);
      else if (at > 1) go(at - 1, pageSize - 1);
    } else if (key.downArrow) {
      if (cursor < length - 1) go(at, cursor + 1);
      else if (at < pages) go(at + 1, 0);
    } else if (key.pageDown || key.rightArrow) {
      if (at < pages) go(at + 1, 0);
    } else if (key.pageUp || key.leftArrow) {
      if (at > 1) go(at - 1, 0);
    } else if (key.home) go(at, 0);
    else if (key.end) go(at, length - 1);
    else return false;
    return true;
  };

  const selected = () => {
    const now = loaded.current;
    const { filterKey: key, page: at, cursor } = place.current;
    return now && now.filterKey === key && now.page === at ? now.items[clamp(cursor, now.items.length)] : undefined;
  };

  const cursor = clamp(place.current.cursor, items.length);
  return { items, total, page, pages, cursor, selected, error: polled.error, reload: polled.reload, onKey };
}
