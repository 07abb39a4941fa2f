import { createHash } from "node:crypto";

export const EPAY_PID = "1001";
export const EPAY_KEY = "fake-epay-merchant-key-0123456789";

/**
 * The Epay MD5 signature, written apart from the gateway's so that each checks the other: the non-empty
 * parameters but sign and sign_type, sorted by name (ASCII), as k=v joined by &, the merchant key appended.
 */
export function epaySignature(params: Record<string, string>, key: string): string {
  const pairs = Object.entries(params).filter(
    ([name, value]) => value !== "" && name !== "sign" && name !== "sign_type",
  );
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = pairs.map(([name, value]) => `${name}=${value}`).join("&");
  return createHash("md5")
    .update(text + key)
    .digest("hex");
}

export interface Notice {
  status: number;
  /** The gateway's reply body: "success" or "fail". */
  text: string;
}

export interface FakeEpay {
  url: string;
  /** The forms posted to submit.php with a valid signature, by out_trade_no. */
  orders: Map<string, Record<string, string>>;
  /** Posts the form of a /api/user/pay reply ({url, data}) as a browser would; answers the HTTP status (400: bad signature or pid). */
  submit(form: { url: string; data: Record<string, string> }): Promise<number>;
  /** The notice of a successful payment of a submitted order, with `change` applied before signing with `key`. */
  noticeFor(outTradeNo: string, change?: Record<string, string>, key?: string): Record<string, string>;
  /** Sends a notice to the order's notify_url (an unknown order's: the last one given), as a form POST or a GET query. */
  send(params: Record<string, string>, method?: "GET" | "POST"): Promise<Notice>;
  /** Sends the correctly signed notice that the order was paid in full. */
  pay(outTradeNo: string, method?: "GET" | "POST"): Promise<Notice>;
  /** A notice signed with a key other than the merchant's. */
  forged(outTradeNo: string): Promise<Notice>;
  /** A correctly signed notice that one cent less than the order's money was paid. */
  underpaid(outTradeNo: string): Promise<Notice>;
  stop(): void;
}

const formOf = async (request: Request): Promise<Record<string, string>> =>
  Object.fromEntries(
    request.method === "POST" ? new URLSearchParams(await request.text()) : new URL(request.url).searchParams,
  );

const centLess = (money: string) => ((Math.round(Number(money) * 100) - 1) / 100).toFixed(2);

/** A fake Epay gateway on a loopback port: accepts signed submit forms and sends signed (or forged) notices. */
export function startFakeEpay(pid = EPAY_PID, key = EPAY_KEY): FakeEpay {
  const orders = new Map<string, Record<string, string>>();
  let tradeSeq = 0;
  /** Where notices of orders this fake never saw go: the last notify_url it was given. */
  let lastNotifyUrl = "";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      if (new URL(request.url).pathname !== "/submit.php") return new Response("not found", { status: 404 });
      const form = await formOf(request);
      if (form.pid !== pid || form.sign !== epaySignature(form, key))
        return new Response("sign error", { status: 400 });
      orders.set(form.out_trade_no!, form);
      lastNotifyUrl = form.notify_url!;
      return new Response("<html>cashier</html>", { headers: { "content-type": "text/html" } });
    },
  });
  const orderOf = (outTradeNo: string) =>
    orders.get(outTradeNo) ?? { out_trade_no: outTradeNo, notify_url: lastNotifyUrl, money: "1.00" };

  const fake: FakeEpay = {
    url: `http://127.0.0.1:${server.port}`,
    orders,
    async submit(form) {
      const response = await fetch(form.url, { method: "POST", body: new URLSearchParams(form.data) });
      return response.status;
    },
    noticeFor(outTradeNo, change = {}, signKey = key) {
      const order = orderOf(outTradeNo);
      const params: Record<string, string> = {
        pid,
        trade_no: `2024${String(++tradeSeq).padStart(8, "0")}`,
        out_trade_no: outTradeNo,
        type: order.type ?? "alipay",
        name: order.name ?? "",
        money: order.money!,
        trade_status: "TRADE_SUCCESS",
        ...change,
      };
      return { ...params, sign: epaySignature(params, signKey), sign_type: "MD5" };
    },
    async send(params, method = "POST") {
      const target = new URL(orderOf(params.out_trade_no!).notify_url!);
      const query = new URLSearchParams(params);
      const response =
        method === "GET" ? await fetch(`${target}?${query}`) : await fetch(target, { method: "POST", body: query });
      return { status: response.status, text: await response.text() };
    },
    pay: (outTradeNo, method) => fake.send(fake.noticeFor(outTradeNo), method),
    forged: (outTradeNo) => fake.send(fake.noticeFor(outTradeNo, {}, `${key}-guessed`)),
    underpaid: (outTradeNo) => fake.send(fake.noticeFor(outTradeNo, { money: centLess(orderOf(outTradeNo).money!) })),
    stop: () => server.stop(true),
  };
  return fake;
}
