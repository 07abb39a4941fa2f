import { useApiData } from "../../use-api-data";
import { AccountSummary } from "../setting/personal/AccountSummary";
import type { SelfUser } from "../setting/personal/self-user";
import { OnlineTopUpCard } from "./OnlineTopUpCard";
import { RedeemCard } from "./RedeemCard";

/** /topup, the wallet: balance, redeeming a code, online top-up (spec §2 'Wallet'). */
export default function TopUpPage() {
  const self = useApiData<SelfUser>("/api/user/self");
  return (
    <div className="flex flex-col gap-3 max-w-3xl" data-testid="top-up-page">
      {self.data ? <AccountSummary user={self.data} /> : <span className="loading loading-spinner" />}
      <RedeemCard onRedeemed={() => void self.reload()} />
      <OnlineTopUpCard />
    </div>
  );
}
