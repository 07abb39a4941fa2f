import { Trans } from "@lingui/react/macro";
import type { ChannelView } from "../../../shared/channel-types";
import type { GroupSeen } from "../../../shared/upstream-clients";
import { DateTime } from "../../date-time";
import { Modal } from "../../components/Modal";
import { useApiData } from "../../use-api-data";

/** Detect upstream: the groups and kinds of client that called through the channel in the last 30 days. */
export function UpstreamClientsDialog({ channel, onClose }: { channel: ChannelView; onClose: () => void }) {
  const { data: groups, loaded } = useApiData<GroupSeen[]>(`/api/channel/test_upstream/${channel.id}`);
  return (
    <Modal title={<Trans>Callers of channel {channel.name}</Trans>} onClose={onClose}>
      <p className="text-sm opacity-70 mb-2">
        <Trans>Calls of the last 30 days (the newest 50,000 at most), by group and kind of client.</Trans>
      </p>
      {!loaded ? (
        <span className="loading loading-spinner" />
      ) : !groups || groups.length === 0 ? (
        <p data-testid="upstream-clients-empty">
          <Trans>No calls through this channel in the last 30 days.</Trans>
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table table-sm" data-testid="upstream-clients">
            <thead>
              <tr>
                <th>
                  <Trans>Group</Trans>
                </th>
                <th>
                  <Trans>Client</Trans>
                </th>
                <th>
                  <Trans>Calls</Trans>
                </th>
                <th>
                  <Trans>First seen</Trans>
                </th>
                <th>
                  <Trans>Last seen</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {groups.flatMap((g) =>
                g.client_types.map((c, i) => (
                  <tr key={`${g.group}/${c.client_type}`}>
                    {i === 0 && <th rowSpan={g.client_types.length}>{g.group}</th>}
                    <td className="whitespace-nowrap">{c.client_type}</td>
                    <td>{c.count}</td>
                    <td>
                      <DateTime seconds={c.first_seen} />
                    </td>
                    <td>
                      <DateTime seconds={c.last_seen} />
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
    </Modal>
  );
}
