import { useLingui } from "@lingui/react/macro";
import { Field } from "../../components/form/Field";

/** For types whose key is a service account's JSON key: the downloaded .json file fills the key field. */
export function ServiceAccountUpload({ onLoad }: { onLoad: (key: string) => void }) {
  const { t } = useLingui();
  return (
    <Field label={t`Service account JSON file`}>
      <input
        type="file"
        name="service_account_file"
        accept="application/json,.json"
        className="file-input w-full"
        onChange={async (e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onLoad((await file.text()).trim());
        }}
      />
    </Field>
  );
}
