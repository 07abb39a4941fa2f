import { t } from "@lingui/core/macro";
import type { ChannelView } from "../../../shared/channel-types";
import { api, query } from "../../api";
import { toast } from "../../state/toasts";
import { formatDuration } from "./channel-rules";

/** PUT /api/channel/ with the id and only the given fields (status, priority or weight); the channel as stored after. */
export async function patchChannel(
  id: number,
  fields: Partial<Pick<ChannelView, "status" | "priority" | "weight">>,
): Promise<ChannelView | undefined> {
  const reply = await api.put<ChannelView>("/api/channel/", { id, ...fields });
  return reply.ok ? reply.data : undefined;
}

/** Tests a channel (with `model`, else its test model) and answers it as stored after, with the new response time. */
export async function testChannel(channel: ChannelView, model?: string): Promise<ChannelView | undefined> {
  const reply = await api.get(`/api/channel/test/${channel.id}${query({ model })}`);
  if (!reply.ok) return undefined;
  const after = await api.get<ChannelView>(`/api/channel/${channel.id}`);
  if (!after.ok) return undefined;
  const time = formatDuration(after.data.response_time);
  toast.success(
    model ? t`Channel ${channel.name} tested with ${model}: ${time}` : t`Channel ${channel.name} tested: ${time}`,
  );
  return after.data;
}

/** PUT /api/channel/tag: fields of every channel with the tag. */
export async function editTag(tag: string, fields: Record<string, unknown>): Promise<boolean> {
  const reply = await api.put<number>("/api/channel/tag", { tag, ...fields });
  if (reply.ok) toast.success(t`Updated ${reply.data} channels`);
  return reply.ok;
}

let byType: Promise<Record<number, string[]> | undefined> | undefined;

/** The models related to a channel type (GET /api/models, asked once per page load). */
export async function relatedModels(type: number): Promise<string[]> {
  byType ??= api.get<Record<number, string[]>>("/api/models").then((reply) => (reply.ok ? reply.data : undefined));
  const models = await byType;
  if (!models) byType = undefined;
  return models?.[type] ?? [];
}

/** The upstream's model list: a saved channel's own (no key typed), else with the typed key and address. */
export async function upstreamModels(source: {
  id?: number;
  type: number;
  base_url: string;
  key: string;
}): Promise<string[] | undefined> {
  const key = source.key.split("\n")[0]!.trim();
  const reply =
    source.id && !key
      ? await api.get<string[]>(`/api/channel/fetch_models/${source.id}`)
      : await api.post<string[]>("/api/channel/fetch_models", { type: source.type, base_url: source.base_url, key });
  return reply.ok ? reply.data : undefined;
}
