import { wholeReply } from "../pricing/whole-reply";

/** POST /api/user/pay's reply: the signed form fields in data, the gateway's address beside them. */
interface PayReply {
  data: Record<string, string>;
  url: string;
}

/** Asks for an order of `amount`, then posts its signed form to the payment gateway in this tab. */
export async function payOnline(amount: number, method: string): Promise<boolean> {
  const reply = await wholeReply<PayReply>("/api/user/pay", { amount, top_up_code: "", payment_method: method });
  if (!reply) return false;
  const form = Object.assign(document.createElement("form"), { method: "POST", action: reply.url });
  for (const [name, value] of Object.entries(reply.data)) {
    form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
  }
  document.body.append(form);
  form.submit();
  return true;
}
