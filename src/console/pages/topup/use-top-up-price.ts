import { useEffect, useState } from "react";
import { api } from "../../api";

const WAIT_MS = 300;

/** What a top-up of `amount` costs (POST /api/user/amount, e.g. "7.30"), asked a moment after typing stops. */
export function useTopUpPrice(amount: number, wanted: boolean): string | undefined {
  const [money, setMoney] = useState<string>();
  useEffect(() => {
    setMoney(undefined);
    if (!wanted) return;
    let current = true;
    const timer = setTimeout(async () => {
      const reply = await api.post<string>("/api/user/amount", { amount, top_up_code: "" }, { quiet: true });
      if (current && reply.ok) setMoney(reply.data);
    }, WAIT_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [amount, wanted]);
  return money;
}
