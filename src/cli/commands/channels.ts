import type { Command } from "commander";
import { createChannels } from "../../service/channels/create";
import { deleteChannel } from "../../service/channels/delete";
import { revealChannelKey } from "../../service/channels/key";
import { getChannel, listChannels } from "../../service/channels/list";
import { knownModels, modelsByType } from "../../service/channels/models";
import { updateChannel } from "../../service/channels/update";
import type { ChannelView } from "../../service/channels/view";
import type { ServiceContext } from "../../service/context";
import { refuse } from "../../service/errors";
import { testChannel, testChannels } from "../../service/relay/channel-tests";
import { quotaDisplayFor } from "../../service/quota-text";
import { ChannelStatus, channelTypeName } from "../../shared/channel-types";
import { formatMoney } from "../../shared/quota-format";
import { asRoot } from "../context";
import { jsonFlag, listing, readStdin, sub, type ListFlags } from "../define";
import { allChannels, channelIdOf } from "../lookup";
import { CHANNEL_STATUS_NAMES, channelTypeOf, nameOf, timeText } from "../names";
import {
  action,
  emit,
  EXIT,
  integer,
  list,
  printJson,
  printPageFooter,
  printRecord,
  printTable,
  say,
  type Column,
  usage,
} from "../output";
import { progress } from "../progress";
import { withQuotaText } from "../quota-cells";

const COLUMNS: Column<ChannelView>[] = [
  { header: "ID", value: (c) => c.id, right: true },
  { header: "NAME", value: (c) => c.name },
  { header: "TYPE", value: (c) => channelTypeName(c.type) },
  { header: "STATUS", value: (c) => nameOf(CHANNEL_STATUS_NAMES, c.status) },
  { header: "PRI", value: (c) => c.priority, right: true },
  { header: "WEIGHT", value: (c) => c.weight, right: true },
  { header: "GROUPS", value: (c) => c.group },
  { header: "MODELS", value: (c) => c.models },
  { header: "RESP MS", value: (c) => c.response_time || "", right: true },
];

const TESTED: Column<ChannelView>[] = [
  { header: "ID", value: (c) => c.id, right: true },
  { header: "NAME", value: (c) => c.name },
  { header: "STATUS", value: (c) => nameOf(CHANNEL_STATUS_NAMES, c.status) },
  { header: "RESP MS", value: (c) => c.response_time || "", right: true },
  { header: "TESTED", value: (c) => timeText(c.test_time) },
];

interface ChannelFlags {
  type?: string;
  name?: string;
  key?: string;
  keyStdin?: boolean;
  baseUrl?: string;
  models?: string[];
  groups?: string[];
  priority?: number;
  weight?: number;
  tag?: string;
  modelMapping?: string;
  testModel?: string;
  autoBan?: boolean;
  remark?: string;
  json?: boolean;
}

const fieldOptions = (command: Command) =>
  command
    .option("--type <type>", "channel type: a number or a name (OpenAI, Anthropic, Gemini, ...)")
    .option("--name <name>", "the channel's name")
    .option("--key <key>", "the upstream key (visible to other local users: prefer --key-stdin)")
    .option("--key-stdin", "read the key from stdin (several lines with --batch)")
    .option("--base-url <url>", "the upstream address (default: the type's own)")
    .option("--models <list>", "comma-separated model names", list)
    .option("--groups <list>", "comma-separated user groups it serves", list)
    .option("--priority <n>", "higher is tried first", integer())
    .option("--weight <n>", "share among channels of the same priority", integer(0))
    .option("--tag <tag>", "a tag to manage channels together")
    .option("--model-mapping <json>", 'JSON object of requested → upstream model names, e.g. {"gpt-4":"gpt-4o"}')
    .option("--test-model <model>", "the model channel tests use")
    .option("--auto-ban", "let the server disable the channel on qualifying errors")
    .option("--no-auto-ban", "never disable the channel automatically")
    .option("--remark <text>", "an administrator's note");

/** The service's input from the flags given; flags left out are not sent. */
async function inputOf(flags: ChannelFlags): Promise<Record<string, unknown>> {
  const key = flags.keyStdin ? await readStdin() : flags.key;
  const input: Record<string, unknown> = {
    type: flags.type === undefined ? undefined : channelTypeOf(flags.type),
    name: flags.name,
    key,
    base_url: flags.baseUrl,
    models: flags.models,
    group: flags.groups,
    priority: flags.priority,
    weight: flags.weight,
    tag: flags.tag,
    model_mapping: flags.modelMapping,
    test_model: flags.testModel,
    auto_ban: flags.autoBan === undefined ? undefined : flags.autoBan ? 1 : 0,
    remark: flags.remark,
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

const setStatus = (ref: string, status: number, json?: boolean) =>
  asRoot(async (ctx, root) => {
    const channel = await updateChannel(ctx, root, { id: await channelIdOf(ctx, root, ref), status });
    emit(channel, json, () =>
      say(`channel ${channel.name} (id ${channel.id}): ${nameOf(CHANNEL_STATUS_NAMES, channel.status)}`),
    );
  });

const probeOf = async (ctx: ServiceContext) => (await import("../../gateway/relay/probe")).relayProbe(ctx);

async function testAll(json?: boolean): Promise<void> {
  await asRoot(async (ctx, root) => {
    const bar = progress("testing channels");
    const { tested } = await testChannels(
      ctx,
      await probeOf(ctx),
      [ChannelStatus.Enabled, ChannelStatus.AutoDisabled],
      bar.update,
    );
    bar.finish();
    const channels = await allChannels(ctx, root);
    emit({ tested, channels }, json, () => {
      printTable(channels, TESTED);
      say(`tested ${tested} channel${tested === 1 ? "" : "s"} (manually disabled ones are skipped)`);
    });
  });
}

/** The subcommands of `tollgate channel`. */
export function channelCommands(channel: Command): void {
  listing(sub(channel, "list", "list channels, highest priority first", "tollgate channel list --group default --json"))
    .option("--keyword <text>", "matches the id, part of the name or tag, or a whole key")
    .option("--group <group>", "only channels serving this group")
    .option("--model <model>", "only channels whose model list contains this")
    .action(
      action(async (flags: ListFlags & { keyword?: string; group?: string; model?: string }) =>
        asRoot(async (ctx, root) => {
          const { keyword, group, model, page, pageSize } = flags;
          const result = await listChannels(ctx, root, {
            keyword,
            group,
            model,
            idSort: false,
            tagMode: false,
            page,
            pageSize,
          });
          emit(result, flags.json, () => {
            printTable(result.items as ChannelView[], COLUMNS);
            printPageFooter(result);
          });
        }),
      ),
    );

  jsonFlag(
    sub(channel, "show <channel>", "show one channel (by id or name)", "tollgate channel show openai-main --with-key"),
  )
    .option("--with-key", "include the upstream key")
    .action(
      action(async (ref: string, flags: { json?: boolean; withKey?: boolean }) =>
        asRoot(async (ctx, root) => {
          const id = await channelIdOf(ctx, root, ref);
          const shown = {
            ...(await getChannel(ctx, root, id)),
            ...(flags.withKey ? await revealChannelKey(ctx, root, id) : {}),
          };
          emit(shown, flags.json, () =>
            printRecord({
              ...withQuotaText(shown, ["used_quota"], quotaDisplayFor(ctx)),
              balance: formatMoney(shown.balance, quotaDisplayFor(ctx)),
              type: `${shown.type} (${channelTypeName(shown.type)})`,
              status: nameOf(CHANNEL_STATUS_NAMES, shown.status),
            }),
          );
        }),
      ),
    );

  jsonFlag(
    fieldOptions(
      sub(
        channel,
        "add",
        "create a channel (or, with --batch, one per key line)",
        "tollgate channel add --type openai --name main --key-stdin --models gpt-4o,gpt-4o-mini --groups default < key.txt",
      ),
    ),
  )
    .option("--batch", "one channel per line of the key")
    .action(
      action(async (flags: ChannelFlags & { batch?: boolean }) => {
        if (flags.type === undefined) usage("--type is required: a number or a name (OpenAI, Anthropic, Gemini, ...)");
        const input = await inputOf(flags);
        await asRoot(async (ctx, root) => {
          const created = await createChannels(ctx, root, { mode: flags.batch ? "batch" : "single", channel: input });
          const channels = Array.isArray(created) ? created : [created];
          emit(created, flags.json, () => {
            for (const c of channels) say(`created channel ${c.name} (id ${c.id})`);
          });
        });
      }),
    );

  jsonFlag(
    fieldOptions(
      sub(
        channel,
        "edit <channel>",
        "change a channel; options left out keep their values",
        "tollgate channel edit openai-main --priority 10 --weight 5",
      ),
    ),
  ).action(
    action(async (ref: string, flags: ChannelFlags) => {
      const input = await inputOf(flags);
      await asRoot(async (ctx, root) => {
        const updated = await updateChannel(ctx, root, { ...input, id: await channelIdOf(ctx, root, ref) });
        emit(updated, flags.json, () => say(`updated channel ${updated.name} (id ${updated.id})`));
      });
    }),
  );

  for (const [name, status] of [
    ["enable", ChannelStatus.Enabled],
    ["disable", ChannelStatus.ManuallyDisabled],
  ] as const) {
    jsonFlag(sub(channel, `${name} <channel>`, `${name} a channel`, `tollgate channel ${name} openai-main`)).action(
      action(async (ref: string, flags: { json?: boolean }) => setStatus(ref, status, flags.json)),
    );
  }

  sub(channel, "delete <channel>", "delete a channel", "tollgate channel delete 12").action(
    action(async (ref: string) =>
      asRoot(async (ctx, root) => {
        const id = await channelIdOf(ctx, root, ref);
        await deleteChannel(ctx, root, id);
        say(`deleted channel ${ref}`);
      }),
    ),
  );

  jsonFlag(
    sub(
      channel,
      "test <channel>",
      "send one test request through the channel (never changes its status)",
      "tollgate channel test openai-main --model gpt-4o-mini",
    ),
  )
    .option("--model <model>", "the model to test (default: the channel's test model, else its first)")
    .action(
      action(async (ref: string, flags: { model?: string; json?: boolean }) =>
        asRoot(async (ctx, root) => {
          const result = await testChannel(ctx, await probeOf(ctx), await channelIdOf(ctx, root, ref), flags.model);
          if (flags.json) printJson(result);
          if (!result.success) {
            if (!flags.json) refuse(`channel ${ref} failed the test: ${result.message}`);
            process.exitCode = EXIT.failure;
          } else if (!flags.json) say(`channel ${ref}: ok in ${result.time.toFixed(2)} s`);
        }),
      ),
    );

  jsonFlag(
    sub(
      channel,
      "test-all",
      "test every channel not disabled by hand; disables failing ones and re-enables recovered ones per the settings",
      "tollgate channel test-all --json",
    ),
  ).action(action(async (flags: { json?: boolean }) => testAll(flags.json)));

  jsonFlag(
    sub(
      channel,
      "models",
      "list every known model name (priced or configured on a channel)",
      "tollgate channel models --by-type --json",
    ),
  )
    .option("--by-type", "group the names by channel type")
    .action(
      action(async (flags: { json?: boolean; byType?: boolean }) =>
        asRoot(async (ctx, root) => {
          if (!flags.byType) {
            const names = await knownModels(ctx, root);
            return emit(names, flags.json, () => say(names.join("\n")));
          }
          const byType = await modelsByType(ctx, root);
          emit(byType, flags.json, () => {
            for (const [type, names] of Object.entries(byType))
              say(`${channelTypeName(Number(type))} (${type}): ${names.join(", ")}`);
          });
        }),
      ),
    );
}
