import { useApiData } from "../../../use-api-data";
import { AccessTokenCard } from "./AccessTokenCard";
import { AccountSummary } from "./AccountSummary";
import { BindingsCard } from "./BindingsCard";
import { DeleteAccountCard } from "./DeleteAccountCard";
import { InviteCard } from "./InviteCard";
import { PasswordCard } from "./PasswordCard";
import { TwoFactorCard } from "./TwoFactorCard";
import type { SelfUser } from "./self-user";
import { UsableModels } from "./UsableModels";

export function PersonalTab() {
  const self = useApiData<SelfUser>("/api/user/self");
  const user = self.data;
  if (!user) return <span className="loading loading-spinner" />;
  return (
    <div className="flex flex-col gap-4" data-testid="personal-tab">
      <AccountSummary user={user} />
      <UsableModels />
      <InviteCard user={user} onChanged={self.reload} />
      <BindingsCard user={user} onChanged={self.reload} />
      <AccessTokenCard />
      <PasswordCard />
      <TwoFactorCard />
      <DeleteAccountCard username={user.username} />
    </div>
  );
}
