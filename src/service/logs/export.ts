import { logRowsByIds, pageLogPlaces, type LogPlace } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { quotaText } from "../quota-text";
import { csvLine } from "./csv";
import { logFilterOf, type LogQuery, type LogScope } from "./filter";
import { logViewOf, type LogView } from "./view";

/** Rows read per query while streaming. */
export const EXPORT_PAGE = 1000;

const COLUMNS: (keyof LogView)[] = [
  "id",
  "created_at",
  "type",
  "username",
  "token_name",
  "model_name",
  "quota",
  "prompt_tokens",
  "completion_tokens",
  "use_time",
  "is_stream",
  "channel",
  "channel_name",
  "group",
  "ip",
  "request_id",
  "content",
  "other",
];
const OWN_COLUMNS = COLUMNS.filter((column) => column !== "channel" && column !== "channel_name");

const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

/**
 * The matching log rows as CSV (header first, newest first), with the lists' visibility rules. Rows are
 * read a page at a time by keyset on (created_at, id) as the reader pulls, so nothing is held whole.
 * The filter is checked before anything is streamed, so a refusal is an ordinary reply.
 */
export function exportLogs(
  ctx: ServiceContext,
  actor: UserRow,
  scope: LogScope,
  query: LogQuery,
): ReadableStream<Uint8Array> {
  const filter = logFilterOf(actor, scope, query);
  const view = logViewOf(scope);
  const columns = scope === "all" ? COLUMNS : OWN_COLUMNS;
  // Each quota is followed by its cost in the site's display (currency or units), as the console shows it.
  const withCost = (column: keyof LogView) => (column === "quota" ? [column, "cost"] : [column]);
  const cells = (row: LogView) =>
    columns.flatMap((c) => (c === "quota" ? [row.quota, quotaText(ctx, row.quota)] : [row[c]]));
  const encoder = new TextEncoder();
  let after: LogPlace | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // The byte-order mark makes spreadsheets read the file as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(["time", ...columns.flatMap(withCost)])}`));
          return;
        }
        const places = await pageLogPlaces(ctx.db, filter, { limit: EXPORT_PAGE, after });
        if (places.length === 0) return controller.close();
        after = places.at(-1);
        const rows = (
          await logRowsByIds(
            ctx.db,
            places.map((place) => place.id),
          )
        ).map(view);
        controller.enqueue(
          encoder.encode(rows.map((row) => csvLine([isoTime(row.created_at), ...cells(row)])).join("")),
        );
      },
    },
    { highWaterMark: 0 },
  );
}
