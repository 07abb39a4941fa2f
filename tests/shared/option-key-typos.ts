/**
 * Misspelled option keys and keys of the wrong kind: each line under a @ts-expect-error must not compile.
 * `bun run typecheck` fails if one does; option-keys.test.ts compiles this file without the marks and expects
 * an error on exactly the marked lines, so no mark hides an unrelated error.
 */
import type { FieldSpec } from "../../src/console/pages/setting/options/field-spec";
import type { OptionRegistry } from "../../src/service/options/registry";
import type { OptionStore } from "../../src/service/options/store";

export function readers(options: OptionStore): void {
  options.num("PreConsumedQuota");
  // @ts-expect-error misspelled
  options.num("PreConsumeQuota");
  // @ts-expect-error a switch is not a number
  options.num("LogConsumeEnabled");
  options.bool("LogConsumeEnabled");
  // @ts-expect-error misspelled
  options.bool("LogConsumedEnabled");
  // @ts-expect-error a number is not a switch
  options.bool("RetryTimes");
  options.raw("SystemName");
  // @ts-expect-error misspelled
  options.raw("SystemNmae");
  options.json("GroupRatio");
  // @ts-expect-error text is not JSON
  options.json("Notice");
  void options.set("QuotaForNewUser", 1);
  // @ts-expect-error misspelled
  void options.set("QuotaForNewUsers", 1);
  // @ts-expect-error misspelled
  void options.reset(["ModelRatios"]);
}

export const cards: FieldSpec[] = [
  { key: "SystemName", kind: "text", label: "name" },
  // @ts-expect-error misspelled
  { key: "SystemNmae", kind: "text", label: "name" },
  // @ts-expect-error a switch cannot edit a number
  { key: "RetryTimes", kind: "switch", label: "retries" },
  // @ts-expect-error a number field cannot edit JSON
  { key: "GroupRatio", kind: "number", min: 0, label: "groups" },
];

export const registries = [
  { Notice: { kind: "text", default: "" } } satisfies Partial<OptionRegistry>,
  // @ts-expect-error a registry entry whose key is not an option key
  { Notic: { kind: "text", default: "" } } satisfies Partial<OptionRegistry>,
  // @ts-expect-error a registry entry of another kind than the shared list says
  { Notice: { kind: "bool", default: "false" } } satisfies Partial<OptionRegistry>,
  // @ts-expect-error a registry without every option key
  { Notice: { kind: "text", default: "" } } satisfies OptionRegistry,
];
