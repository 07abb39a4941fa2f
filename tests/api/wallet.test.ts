import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TOO_MANY_REQUESTS } from "../../src/gateway/api/rate-limit";
import { METHOD_UNAVAILABLE, ONLINE_TOP_UP_DISABLED } from "../../src/service/wallet/order";
import { AMOUNT_TOO_LARGE, belowMinimum, MONEY_TOO_LOW } from "../../src/service/wallet/quote";
import { expectFailure, type ApiClient, type Reply } from "../support/client";
import { DIALECTS } from "../support/databases";
import { EPAY_KEY, EPAY_PID, epaySignature, startFakeEpay, type FakeEpay } from "../support/fake-epay";
import { countRows, logsOf, setUserFields, userRow } from "../support/rows";
import { useTestServer } from "../support/server";

const refused = (reply: Reply, message: string) => expectFailure(reply, 200, message);
const TRADE_NO = /^USR(\d+)NO[0-9A-Za-z]{6}(\d{10})$/;
const FORM_FIELDS = ["money", "name", "notify_url", "out_trade_no", "pid", "return_url", "sign", "sign_type", "type"];

describe.each(DIALECTS)("wallet and online payment on %s", (dialect) => {
  const s = useTestServer(dialect);
  let epay: FakeEpay;

  const setOption = async (key: string, value: unknown) => {
    const reply = await s.root.put("/api/option/", { key, value });
    if (!reply.body.success) throw new Error(`${key}: ${reply.body.message}`);
  };
  const DEFAULTS: [string, unknown][] = [
    ["Price", 7.3],
    ["MinTopUp", 1],
    ["TopupGroupRatio", { default: 1, vip: 1, svip: 1 }],
    ["DisplayInCurrencyEnabled", true],
    ["CustomCallbackAddress", ""],
    ["EpayKey", EPAY_KEY],
  ];
  /** Each test starts from the configured gateway with the default prices; tests change what they need. */
  const withOptions = async (options: [string, unknown][], work: () => Promise<void>) => {
    for (const [key, value] of options) await setOption(key, value);
    try {
      await work();
    } finally {
      for (const [key, value] of DEFAULTS) await setOption(key, value);
    }
  };

  beforeAll(async () => {
    epay = startFakeEpay();
    await setOption("ServerAddress", s.url);
    await setOption("PayAddress", epay.url);
    await setOption("EpayId", EPAY_PID);
    await setOption("EpayKey", EPAY_KEY);
  });
  afterAll(() => epay.stop());

  const amount = (c: ApiClient, value: unknown) => c.post("/api/user/amount", { amount: value, top_up_code: "" });
  const pay = (c: ApiClient, value: unknown, method: unknown = "alipay") =>
    c.post("/api/user/pay", { amount: value, top_up_code: "", payment_method: method });
  const orderRow = (tradeNo: string) =>
    s.ctx.db.k.selectFrom("top_ups").selectAll().where("trade_no", "=", tradeNo).executeTakeFirstOrThrow();
  /** A user's balance, top-up log rows and orders, to prove what a call did or did not change. */
  const walletOf = async (id: number) => ({
    quota: (await userRow(s.ctx, id)).quota,
    logs: (await logsOf(s.ctx, id)).filter((row) => row.type === 1),
    orders: await s.ctx.db.k.selectFrom("top_ups").selectAll().where("user_id", "=", id).orderBy("id").execute(),
  });
  /** A new user with a pending order of `dollars` submitted to the fake gateway. */
  async function orderFor(dollars = 10, method = "alipay") {
    const user = await s.newUser();
    const reply = await pay(user, dollars, method);
    expect(reply.body.success).toBe(true);
    expect(await epay.submit(reply.body)).toBe(200);
    return { user, tradeNo: reply.body.data.out_trade_no as string, form: reply.body };
  }

  describe("GET /api/status: the wallet's fields", () => {
    test("top_up_link, min_topup, price, usd_exchange_rate and pay_methods follow the options", async () => {
      await withOptions(
        [
          ["TopUpLink", "https://shop.example/codes"],
          ["MinTopUp", 5],
          ["Price", 6.5],
        ],
        async () => {
          const { data } = (await s.client().get("/api/status")).body;
          expect(data).toMatchObject({
            top_up_link: "https://shop.example/codes",
            min_topup: 5,
            price: 6.5,
            usd_exchange_rate: 7.3,
          });
          expect(data.pay_methods.map((m: any) => m.type)).toEqual(["alipay", "wxpay"]);
        },
      );
      await setOption("TopUpLink", "");
    });

    test("enable_online_topup is true only while PayAddress, EpayId and EpayKey are all set", async () => {
      expect((await s.client().get("/api/status")).body.data.enable_online_topup).toBe(true);
      await withOptions([["EpayKey", ""]], async () => {
        expect((await s.client().get("/api/status")).body.data.enable_online_topup).toBe(false);
      });
    });
  });

  describe("POST /api/user/amount: the money to pay", () => {
    test("amount × Price × TopupGroupRatio[group], two decimals, message 'success'", async () => {
      const user = await s.newUser();
      expect((await amount(user, 10)).body).toEqual({ success: true, message: "success", data: "73.00" });
      await withOptions(
        [
          ["Price", 6.99],
          ["TopupGroupRatio", { default: 0.5, vip: 0.8 }],
        ],
        async () => {
          expect((await amount(user, 3)).body.data).toBe("10.49");
          await setUserFields(s.ctx, user.userId!, { group: "vip" });
          expect((await amount(user, 3)).body.data).toBe("16.78");
          await setUserFields(s.ctx, user.userId!, { group: "no-ratio-group" });
          expect((await amount(user, 3)).body.data).toBe("20.97");
        },
      );
    });

    test("when quota is shown as tokens, the amount is in quota units (500000 = one dollar)", async () => {
      const user = await s.newUser();
      await withOptions([["DisplayInCurrencyEnabled", false]], async () => {
        expect((await amount(user, 750000)).body.data).toBe("10.95");
        refused(await amount(user, 499999), belowMinimum(500000));
      });
    });

    test.each([
      [0, belowMinimum(1)],
      [-5, belowMinimum(1)],
      ["ten", "amount must be an integer"],
      [2.5, "amount must be an integer"],
      [1_000_001, AMOUNT_TOO_LARGE],
    ])("amount %p is refused", async (value, message) => {
      refused(await amount(await s.newUser(), value), message);
    });

    test("below MinTopUp is refused with the minimum; a price under one cent is refused", async () => {
      const user = await s.newUser();
      await withOptions([["MinTopUp", 5]], async () => {
        refused(await amount(user, 4), belowMinimum(5));
        expect((await amount(user, 5)).body.data).toBe("36.50");
      });
      await withOptions([["TopupGroupRatio", { default: 0.0001 }]], async () => {
        refused(await amount(user, 1), MONEY_TOO_LOW);
      });
    });

    test("without a sign-in it answers 401", async () => {
      expect((await amount(s.client(), 10)).status).toBe(401);
    });
  });

  describe("POST /api/user/pay: a pending order and the signed Epay form", () => {
    test("answers the form fields and the submit URL; the order is pending with the quota it will credit", async () => {
      const user = await s.newUser();
      const reply = await pay(user, 10, "wxpay");
      expect(reply.body).toMatchObject({ success: true, message: "success", url: `${epay.url}/submit.php` });
      const fields = reply.body.data;
      expect(Object.keys(fields).sort()).toEqual(FORM_FIELDS);
      expect(fields).toMatchObject({
        pid: EPAY_PID,
        type: "wxpay",
        notify_url: `${s.url}/api/user/epay/notify`,
        return_url: `${s.url}/topup`,
        name: "TUC10",
        money: "73.00",
        sign_type: "MD5",
      });
      expect(fields.sign).toBe(epaySignature(fields, EPAY_KEY));
      const [, userId, unix] = TRADE_NO.exec(fields.out_trade_no)!;
      expect(Number(userId)).toBe(user.userId!);
      expect(Math.abs(Number(unix) - Date.now() / 1000)).toBeLessThan(5);
      expect(await orderRow(fields.out_trade_no)).toMatchObject({
        user_id: user.userId,
        amount: 5_000_000,
        money: 73,
        payment_method: "wxpay",
        payment_provider: "epay",
        status: "pending",
        complete_time: 0,
      });
      expect(await epay.submit(reply.body)).toBe(200);
      expect(epay.orders.get(fields.out_trade_no)).toMatchObject({ money: "73.00", type: "wxpay" });
    });

    test("the notify address is CustomCallbackAddress when set", async () => {
      await withOptions([["CustomCallbackAddress", "https://callback.example"]], async () => {
        const reply = await pay(await s.newUser(), 1);
        expect(reply.body.data.notify_url).toBe("https://callback.example/api/user/epay/notify");
        expect(reply.body.data.return_url).toBe(`${s.url}/topup`);
      });
    });

    test.each([
      ["online top-up is not enabled", [["EpayKey", ""]], 10, "alipay", ONLINE_TOP_UP_DISABLED],
      ["the amount is below MinTopUp", [["MinTopUp", 20]], 19, "alipay", belowMinimum(20)],
      ["the amount is 0", [], 0, "alipay", belowMinimum(1)],
      ["the method is not in PayMethods", [], 10, "bitcoin", METHOD_UNAVAILABLE],
      ["the method is blank", [], 10, "", METHOD_UNAVAILABLE],
      ["the price is under one cent", [["TopupGroupRatio", { default: 0.0001 }]], 1, "alipay", MONEY_TOO_LOW],
    ] as [string, [string, unknown][], number, string, string][])(
      "refused when %s, and no order is made",
      async (_label, options, value, method, message) => {
        const user = await s.newUser();
        await withOptions(options, async () => {
          const before = await countRows(s.ctx, "top_ups");
          refused(await pay(user, value, method), message);
          expect(await countRows(s.ctx, "top_ups")).toBe(before);
        });
      },
    );

    test("without a sign-in it answers 401", async () => {
      expect((await pay(s.client(), 10)).status).toBe(401);
    });
  });

  describe("GET and POST /api/user/epay/notify: the payment notice", () => {
    test("a signed TRADE_SUCCESS notice credits the order once: quota, order success, one top-up log row", async () => {
      const { user, tradeNo } = await orderFor(10);
      const before = await userRow(s.ctx, user.userId!);
      expect(await epay.pay(tradeNo)).toEqual({ status: 200, text: "success" });
      expect((await userRow(s.ctx, user.userId!)).quota).toBe(before.quota + 10 * 500000);
      expect((await user.get("/api/user/self")).body.data.quota).toBe(before.quota + 10 * 500000);
      const order = await orderRow(tradeNo);
      expect(order.status).toBe("success");
      expect(Math.abs(order.complete_time - Date.now() / 1000)).toBeLessThan(5);
      const logs = (await logsOf(s.ctx, user.userId!)).filter((row) => row.type === 1);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ quota: 5_000_000, username: user.username });
      expect(logs[0]!.content).toContain(tradeNo);
      expect(logs[0]!.content).toContain("alipay");
    });

    test("a GET notice works the same", async () => {
      const { user, tradeNo } = await orderFor(2, "wxpay");
      const before = (await userRow(s.ctx, user.userId!)).quota;
      expect((await epay.pay(tradeNo, "GET")).text).toBe("success");
      expect((await userRow(s.ctx, user.userId!)).quota).toBe(before + 1_000_000);
    });

    test("a replayed notice answers 'success' and changes nothing", async () => {
      const { user, tradeNo } = await orderFor(3);
      const notice = epay.noticeFor(tradeNo);
      expect((await epay.send(notice)).text).toBe("success");
      const after = await walletOf(user.userId!);
      for (const again of [notice, epay.noticeFor(tradeNo)]) {
        expect((await epay.send(again)).text).toBe("success");
        expect(await walletOf(user.userId!)).toEqual(after);
      }
    });

    test("parallel copies of one notice credit the order exactly once", async () => {
      const { user, tradeNo } = await orderFor(4);
      const before = (await userRow(s.ctx, user.userId!)).quota;
      const notice = epay.noticeFor(tradeNo);
      const replies = await Promise.all(Array.from({ length: 20 }, () => epay.send(notice)));
      expect(replies.every((reply) => reply.text === "success")).toBe(true);
      expect((await userRow(s.ctx, user.userId!)).quota).toBe(before + 2_000_000);
      expect((await walletOf(user.userId!)).logs).toHaveLength(1);
    });

    test.each([
      ["signed with another key (forged)", (e: FakeEpay, no: string) => e.forged(no)],
      ["signed for one cent less than the order (under-paid)", (e: FakeEpay, no: string) => e.underpaid(no)],
      [
        "with the money raised after signing (tampered)",
        (e: FakeEpay, no: string) => e.send({ ...e.noticeFor(no), money: "9999.00" }),
      ],
      ["with the signature removed", (e: FakeEpay, no: string) => e.send({ ...e.noticeFor(no), sign: "" })],
      ["for another merchant id", (e: FakeEpay, no: string) => e.send(e.noticeFor(no, { pid: "9999" }))],
    ])("a notice %s answers 'fail' and changes nothing; the order can still be paid", async (_label, send) => {
      const { user, tradeNo } = await orderFor(5);
      const before = await walletOf(user.userId!);
      expect((await send(epay, tradeNo)).text).toBe("fail");
      expect(await walletOf(user.userId!)).toEqual(before);
      expect((await epay.pay(tradeNo)).text).toBe("success");
      expect((await userRow(s.ctx, user.userId!)).quota).toBe(before.quota + 2_500_000);
    });

    test("a signed notice for an unknown order answers 'fail'", async () => {
      const { tradeNo } = await orderFor(1);
      const notice = epay.noticeFor(tradeNo, { out_trade_no: "USR1NOabcdef1700000000" });
      const before = await countRows(s.ctx, "logs");
      expect((await epay.send(notice)).text).toBe("fail");
      expect(await countRows(s.ctx, "logs")).toBe(before);
    });

    test("a signed notice of a payment not completed answers 'success' and credits nothing", async () => {
      const { user, tradeNo } = await orderFor(1);
      const before = await walletOf(user.userId!);
      expect((await epay.send(epay.noticeFor(tradeNo, { trade_status: "WAIT_BUYER_PAY" }))).text).toBe("success");
      expect(await walletOf(user.userId!)).toEqual(before);
    });

    test("while online top-up is not enabled every notice answers 'fail'", async () => {
      const { user, tradeNo } = await orderFor(1);
      const before = await walletOf(user.userId!);
      await withOptions([["EpayKey", ""]], async () => {
        expect((await epay.pay(tradeNo)).text).toBe("fail");
      });
      expect(await walletOf(user.userId!)).toEqual(before);
    });

    test("the credit follows the order, not the options at notice time", async () => {
      const { user, tradeNo } = await orderFor(6);
      const before = (await userRow(s.ctx, user.userId!)).quota;
      await withOptions(
        [
          ["Price", 1],
          ["DisplayInCurrencyEnabled", false],
        ],
        async () => {
          expect((await epay.pay(tradeNo)).text).toBe("success");
        },
      );
      expect((await userRow(s.ctx, user.userId!)).quota).toBe(before + 3_000_000);
    });
  });
});

describe.each(DIALECTS)("payment rate limit on %s", (dialect) => {
  /** CRITICAL_RATE_LIMIT=3 per address and action (each action its own window). */
  const s = useTestServer(dialect, { CRITICAL_RATE_LIMIT: "3", TRUST_PROXY: "1" });

  test("POST /api/user/pay is rate-limited per client address: 429 'too many requests, please try again later'", async () => {
    const user = await s.newUser();
    const from = { "x-forwarded-for": "198.51.100.78" };
    for (let i = 0; i < 3; i++) refused(await user.post("/api/user/pay", { amount: 1 }, from), ONLINE_TOP_UP_DISABLED);
    expectFailure(await user.post("/api/user/pay", { amount: 1 }, from), 429, TOO_MANY_REQUESTS);
  });
});
