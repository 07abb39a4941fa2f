import { Trans } from "@lingui/react/macro";
import { useLocation, useParams } from "wouter";
import { EditUserForm } from "./EditUserForm";

/** /user/edit/{id}: the editor as a page. */
export default function EditUserPage() {
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  return (
    <div className="card bg-base-100 shadow max-w-xl">
      <div className="card-body">
        <h1 className="card-title">
          <Trans>Edit user</Trans>
        </h1>
        <EditUserForm id={Number(id)} onSaved={() => navigate("/user")} onCancel={() => navigate("/user")} />
      </div>
    </div>
  );
}
