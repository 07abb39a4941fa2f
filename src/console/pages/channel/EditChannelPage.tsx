import { Trans } from "@lingui/react/macro";
import { useLocation, useParams } from "wouter";
import { ChannelForm } from "./ChannelForm";

/** /channel/add and /channel/edit/{id}: the channel form as a page. */
export default function EditChannelPage() {
  const { id } = useParams<{ id?: string }>();
  const [, navigate] = useLocation();
  const back = () => navigate("/channel");
  return (
    <div className="card bg-base-100 shadow max-w-2xl">
      <div className="card-body">
        <h1 className="card-title">{id ? <Trans>Edit channel</Trans> : <Trans>Add channel</Trans>}</h1>
        <ChannelForm key={id ?? "new"} id={id ? Number(id) : undefined} onSaved={back} onCancel={back} />
      </div>
    </div>
  );
}
