import { channelTypeName } from "../../../shared/channel-types";
import { RelayError } from "../../../shared/relay-error";
import { openaiErrorOf } from "./error-shape";
import type { Provider } from "./types";

/** What the relay says of a channel whose type has no provider: nothing is sent anywhere. */
export const unservedMessage = (type: number): string =>
  `channel type ${channelTypeName(type)} (${type}) has no provider in this gateway; change the channel's type or delete it`;

/** The stand-in for a channel whose type no family claims: it serves no endpoint and refuses every call. */
export const unservedProvider: Provider = {
  types: [],
  endpoints: new Set(),
  request(channel) {
    throw new RelayError(503, unservedMessage(channel.type), "channel_type_unserved", "tollgate_error");
  },
  errorOf: openaiErrorOf,
};
