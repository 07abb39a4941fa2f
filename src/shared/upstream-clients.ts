/** GET /api/channel/test_upstream/:id: who called through a channel, per group and kind of client. */

export interface ClientTypeSeen {
  client_type: string;
  count: number;
  first_seen: number;
  last_seen: number;
}

export interface GroupSeen {
  group: string;
  first_seen: number;
  last_seen: number;
  client_types: ClientTypeSeen[];
}
