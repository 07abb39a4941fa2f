import type { Exec } from "../../db/exec";
import { loadRoutingTable } from "../../db/queries/routing";
import type { ChannelRow } from "../../db/schema";
import type { ChangeBus } from "../changes";
import { keysOf, multiKeyInfoOf, type MultiKeyInfo } from "../channels/multi-key";
import { overridesOf, type ChannelOverrides } from "./channel-overrides";
import { parseMapping } from "./model-mapping";

/** A channel as the relay uses it, with its JSON fields parsed once. */
export interface RouteChannel {
  row: ChannelRow;
  modelMapping: Record<string, string>;
  statusCodeMapping: Record<string, string>;
  /** param_override and header_override, applied last to every upstream request; undefined for none. */
  overrides?: ChannelOverrides;
  /** A multi-key channel's keys and their state; undefined for a single key. */
  multiKey?: { info: MultiKeyInfo; keys: string[] };
}

function multiKeyOf(row: ChannelRow): RouteChannel["multiKey"] {
  const info = multiKeyInfoOf(row);
  return info && { info, keys: keysOf(row.key) };
}

interface Candidate {
  channel: RouteChannel;
  weight: number;
}

/** Candidates of one (group, model), in tiers of equal priority, highest first. */
type Tiers = Candidate[][];

/**
 * The in-memory routing table: group → model → priority tiers of enabled channels. Rebuilt from the
 * database when channels change (the change bus), so picking a channel never waits on the database.
 */
export class RoutingTable {
  private routes = new Map<string, Map<string, Tiers>>();
  private byId = new Map<number, RouteChannel>();
  private rebuilding: Promise<void> | null = null;
  private dirty = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Exec,
    changes: ChangeBus,
  ) {
    this.unsubscribe = changes.on("channels", () => void this.rebuild().catch(() => {}));
  }

  /** Reloads the table; a change during a reload triggers one more reload. */
  rebuild(): Promise<void> {
    if (this.rebuilding) {
      this.dirty = true;
      return this.rebuilding;
    }
    this.rebuilding = (async () => {
      do {
        this.dirty = false;
        const { channels, abilities } = await loadRoutingTable(this.db);
        this.install(channels, abilities);
      } while (this.dirty);
    })().finally(() => (this.rebuilding = null));
    return this.rebuilding;
  }

  private install(
    channels: ChannelRow[],
    abilities: { group: string; model: string; channel_id: number; priority: number; weight: number }[],
  ): void {
    const byId = new Map<number, RouteChannel>();
    for (const row of channels) {
      byId.set(row.id, {
        row,
        modelMapping: parseMapping(row.model_mapping),
        statusCodeMapping: parseMapping(row.status_code_mapping),
        overrides: overridesOf(row),
        multiKey: multiKeyOf(row),
      });
    }
    const routes = new Map<string, Map<string, Tiers>>();
    const flat = new Map<string, Map<string, Candidate[]>>();
    for (const ability of abilities) {
      const channel = byId.get(ability.channel_id);
      if (!channel) continue;
      let models = flat.get(ability.group);
      if (!models) flat.set(ability.group, (models = new Map()));
      let list = models.get(ability.model);
      if (!list) models.set(ability.model, (list = []));
      list.push({ channel, weight: ability.weight });
    }
    for (const [group, models] of flat) {
      const tiered = new Map<string, Tiers>();
      for (const [model, list] of models) tiered.set(model, toTiers(list));
      routes.set(group, tiered);
    }
    this.routes = routes;
    this.byId = byId;
  }

  channel(id: number): RouteChannel | undefined {
    return this.byId.get(id);
  }

  hasRoute(group: string, model: string): boolean {
    return (this.routes.get(group)?.get(model)?.length ?? 0) > 0;
  }

  /** Models served in a group. */
  modelsOf(group: string): string[] {
    return [...(this.routes.get(group)?.keys() ?? [])];
  }

  /**
   * Picks a channel for (group, model) not in `excluded`: the highest tier that still has a candidate,
   * then weighted random inside it (all weights 0 → uniform; a 0-weight channel beside weighted ones is a
   * last resort).
   */
  pick(group: string, model: string, excluded: ReadonlySet<number>, random = Math.random): RouteChannel | undefined {
    const tiers = this.routes.get(group)?.get(model);
    if (!tiers) return undefined;
    // The usual first pick: a single channel on top, nothing excluded yet.
    if (excluded.size === 0 && tiers[0]!.length === 1) return tiers[0]![0]!.channel;
    for (const tier of tiers) {
      const open = tier.filter((c) => !excluded.has(c.channel.row.id));
      if (open.length === 0) continue;
      const weighted = open.filter((c) => c.weight > 0);
      if (weighted.length === 0) return open[Math.floor(random() * open.length)]!.channel;
      const total = weighted.reduce((sum, c) => sum + c.weight, 0);
      let point = random() * total;
      for (const candidate of weighted) {
        point -= candidate.weight;
        if (point < 0) return candidate.channel;
      }
      return weighted[weighted.length - 1]!.channel;
    }
    return undefined;
  }

  close(): void {
    this.unsubscribe();
  }
}

function toTiers(list: Candidate[]): Tiers {
  const byPriority = new Map<number, Candidate[]>();
  for (const candidate of list) {
    const priority = candidate.channel.row.priority;
    const tier = byPriority.get(priority) ?? [];
    tier.push(candidate);
    byPriority.set(priority, tier);
  }
  return [...byPriority.entries()].sort((a, b) => b[0] - a[0]).map(([, tier]) => tier);
}
