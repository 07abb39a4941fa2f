import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { columnsFor } from "../../components/table/paged-table";
import type { KindColumns } from "./record-columns";
import type { DrawingRecord } from "./record-kinds";
import { useRecordLabels } from "./record-labels";

const column = columnsFor<DrawingRecord>();

const clipped = (text: string) => (
  <span className="block max-w-56 truncate" title={text}>
    {text}
  </span>
);

/** The drawing screen's own columns: the submit result, then the image and both prompts. */
export function useDrawingColumns(): KindColumns<DrawingRecord> {
  const { t, i18n } = useLingui();
  const labels = useRecordLabels();
  return useMemo(
    () => ({
      taskId: (row) => row.mj_id,
      middle: column.columns([
        column.display({
          id: "code",
          header: t`Submit result`,
          cell: ({ row }) => (
            <span
              className={`badge badge-sm whitespace-nowrap ${row.original.code === 1 ? "badge-success" : "badge-warning"}`}
            >
              {labels.code(row.original.code)}
            </span>
          ),
        }),
      ]),
      tail: column.columns([
        column.display({
          id: "image",
          header: t`Image`,
          cell: ({ row }) =>
            row.original.image_url ? (
              <a
                className="link link-primary flex items-center gap-2 whitespace-nowrap"
                href={row.original.image_url}
                target="_blank"
                rel="noreferrer"
              >
                <img
                  className="h-10 w-10 rounded object-cover"
                  src={row.original.image_url}
                  alt={row.original.prompt}
                  loading="lazy"
                  referrerPolicy="no-referrer"
                  data-testid="image-preview"
                />
                {t`View image`}
              </a>
            ) : null,
        }),
        column.display({ id: "prompt", header: t`Prompt`, cell: ({ row }) => clipped(row.original.prompt) }),
        column.display({
          id: "prompt_en",
          header: t`Prompt (English)`,
          cell: ({ row }) => clipped(row.original.prompt_en),
        }),
      ]),
    }),
    [i18n.locale],
  );
}
