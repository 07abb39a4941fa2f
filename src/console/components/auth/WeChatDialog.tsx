import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Modal } from "../Modal";
import { TextField } from "../form/TextField";

interface WeChatDialogProps {
  qrcode: string;
  onCode: (code: string) => void;
  onClose: () => void;
}

/** The official account's QR image and the verification code it answers with (valid 3 minutes). */
export function WeChatDialog({ qrcode, onCode, onClose }: WeChatDialogProps) {
  const { t } = useLingui();
  const [code, setCode] = useState("");
  return (
    <Modal
      title={<Trans>WeChat</Trans>}
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => code && onCode(code)}>
          <Trans>Confirm</Trans>
        </button>
      }
    >
      {qrcode && <img src={qrcode} alt="" className="mx-auto w-48" />}
      <p className="text-sm my-2">
        <Trans>
          Scan the QR code to follow the official account, send "verification code" and enter the code you get (valid
          for 3 minutes).
        </Trans>
      </p>
      <TextField label={t`Verification code`} name="wechat-code" value={code} onChange={setCode} />
    </Modal>
  );
}
