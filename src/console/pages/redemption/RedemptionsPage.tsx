import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { KeyListDialog } from "../../components/KeyListDialog";
import { idOfRow, ServerTable } from "../../components/table/ServerTable";
import { useRowSelection, withSelection } from "../../components/table/row-selection";
import { SearchForm } from "../../components/table/SearchForm";
import { useRowHandlers } from "../../components/table/use-row-handlers";
import { useServerPage } from "../../components/table/use-server-page";
import { copyText } from "../../state/clipboard";
import { toast } from "../../state/toasts";
import { redemptionListUrl, type Redemption } from "./redemption-api";
import { useRedemptionColumns } from "./redemption-columns";
import { RedemptionPanel } from "./RedemptionPanel";

export default function RedemptionsPage() {
  const { t } = useLingui();
  const [keyword, setKeyword] = useState("");
  const [created, setCreated] = useState<string[]>([]);
  const page = useServerPage<Redemption>((p, size) => redemptionListUrl(keyword, p, size));
  const selection = useRowSelection(page.rows, (code) => code.id);
  const { handlers, editing, setEditing } = useRowHandlers(page);
  const columns = withSelection(true, selection, useRedemptionColumns(handlers));

  const copySelected = () => {
    if (selection.ids.length === 0) return toast.error(t`Please select at least one redemption code!`);
    const keys = page.rows.filter((row) => selection.ids.includes(row.id)).map((row) => row.key);
    void copyText(keys.join("\n"), t`Copied ${keys.length} redemption codes to the clipboard`);
  };
  return (
    <div className="flex flex-col gap-3" data-testid="redemptions-page">
      <SearchForm
        fields={[{ name: "keyword", placeholder: t`Search by ID or name` }]}
        testId="redemption-search"
        onSearch={(values) => {
          page.firstPage();
          setKeyword(values.keyword);
        }}
      >
        <button
          type="button"
          className="btn btn-primary"
          data-action="add-redemption"
          onClick={() => setEditing("new")}
        >
          <Trans>Add redemption codes</Trans>
        </button>
        <button type="button" className="btn" data-action="copy-selected" onClick={copySelected}>
          <Trans>Copy selected</Trans>
        </button>
      </SearchForm>
      <ServerTable page={page} rows={page.rows} columns={columns} rowId={idOfRow} testId="redemptions-table" />
      {editing && (
        <RedemptionPanel
          code={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(keys) => {
            setEditing(null);
            setCreated(keys);
            void page.reload();
          }}
        />
      )}
      {created.length > 0 && (
        <KeyListDialog
          title={<Trans>{created.length} redemption codes created</Trans>}
          keys={created}
          onClose={() => setCreated([])}
        />
      )}
    </div>
  );
}
