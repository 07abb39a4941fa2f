import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { copyText } from "../state/clipboard";
import { Modal } from "./Modal";

/** Keys (token keys, redemption codes) to read and copy, one per line. */
export function KeyListDialog({ title, keys, onClose }: { title: ReactNode; keys: string[]; onClose: () => void }) {
  const { t } = useLingui();
  const text = keys.join("\n");
  return (
    <Modal
      title={title}
      onClose={onClose}
      actions={
        <button
          type="button"
          className="btn btn-primary"
          data-testid="copy-keys"
          onClick={() => copyText(text, t`Copied to the clipboard`)}
        >
          <Trans>Copy</Trans>
        </button>
      }
    >
      <textarea
        className="textarea w-full font-mono text-xs"
        data-testid="key-list"
        readOnly
        rows={Math.min(12, Math.max(2, keys.length))}
        value={text}
        onFocus={(e) => e.currentTarget.select()}
      />
    </Modal>
  );
}
