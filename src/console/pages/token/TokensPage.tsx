import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { TokenView } from "../../../shared/views/token";
import { idOfRow, ServerTable } from "../../components/table/ServerTable";
import { useRowSelection, withSelection } from "../../components/table/row-selection";
import { SearchForm } from "../../components/table/SearchForm";
import { useRowHandlers } from "../../components/table/use-row-handlers";
import { useServerPage } from "../../components/table/use-server-page";
import { copyText } from "../../state/clipboard";
import { toast } from "../../state/toasts";
import { revealKeys, tokenListUrl, type TokenFilter } from "./token-api";
import { useTokenColumns } from "./token-columns";
import { TokenPanel } from "./TokenPanel";

export default function TokensPage() {
  const { t } = useLingui();
  const [filter, setFilter] = useState<TokenFilter>({ keyword: "", token: "" });
  const page = useServerPage<TokenView>((p, size) => tokenListUrl(filter, p, size));
  const selection = useRowSelection(page.rows, (token) => token.id);
  const { handlers, editing, setEditing } = useRowHandlers(page);
  const columns = withSelection(true, selection, useTokenColumns(handlers));

  const copySelected = async () => {
    if (selection.ids.length === 0) return toast.error(t`Please select at least one token!`);
    const keys = await revealKeys(selection.ids);
    if (keys) await copyText(keys.join("\n"), t`Copied ${keys.length} keys to the clipboard`);
  };
  const fields = [
    { name: "keyword" as const, placeholder: t`Search by name` },
    { name: "token" as const, placeholder: t`Search by whole key (sk-…)` },
  ];
  return (
    <div className="flex flex-col gap-3" data-testid="tokens-page">
      <SearchForm
        fields={fields}
        testId="token-search"
        onSearch={(values) => {
          page.firstPage();
          setFilter(values);
        }}
      >
        <button type="button" className="btn btn-primary" data-action="add-token" onClick={() => setEditing("new")}>
          <Trans>Add token</Trans>
        </button>
        <button type="button" className="btn" data-action="copy-selected" onClick={copySelected}>
          <Trans>Copy selected</Trans>
        </button>
      </SearchForm>
      <ServerTable page={page} rows={page.rows} columns={columns} rowId={idOfRow} testId="tokens-table" />
      {editing && (
        <TokenPanel
          token={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void page.reload();
          }}
        />
      )}
    </div>
  );
}
