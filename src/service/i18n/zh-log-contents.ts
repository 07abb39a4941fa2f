/**
 * The contents of the log rows the server writes itself (balance changes), in Chinese: stored as written, in
 * English, and worded for the reader when a log page is read in zh.
 */
export const ZH_LOG_CONTENTS: Readonly<Record<string, string>> = {
  "new user registration bonus {0}": "新用户注册赠送 {0}",
  "invitation code bonus {0}": "使用邀请码赠送 {0}",
  "invitation reward {0} to the affiliate balance for inviting {1}": "邀请用户 {1}，奖励 {0} 计入邀请余额",
  "affiliate earnings transferred to the balance: {0}": "邀请收益划转至余额：{0}",
  "administrator {0} changed the quota from {1} to {2}": "管理员 {0} 将额度从 {1} 修改为 {2}",
  "task {0} failed, {1} quota refunded: {2}": "任务 {0} 失败，已退还 {1} 额度：{2}",
  "online top-up of {0}: paid {1} by {2}, order {3}, epay trade {4}":
    "在线充值 {0}：通过 {2} 支付 {1}，订单号 {3}，支付平台交易号 {4}",
  "redeemed {0} with redemption code #{1}": "通过兑换码 #{1} 兑换 {0}",
};
