import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { manualCopy } from "../state/clipboard";
import { Modal } from "./Modal";

export function ManualCopyDialog() {
  useSignals();
  const text = manualCopy.value;
  if (text === null) return null;
  const close = () => (manualCopy.value = null);
  return (
    <Modal title={<Trans>Copy failed, please copy manually</Trans>} onClose={close}>
      <input className="input w-full" readOnly value={text} onFocus={(e) => e.currentTarget.select()} autoFocus />
    </Modal>
  );
}
