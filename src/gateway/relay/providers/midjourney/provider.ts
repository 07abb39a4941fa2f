import { RelayError } from "../../../../shared/relay-error";
import type { Provider } from "../types";
import { midjourneyTasks } from "./tasks";

/** midjourney-proxy's error reply {code, description}. */
const midjourneyErrorOf = (reply: any) => ({
  message: typeof reply?.description === "string" ? reply.description : undefined,
  code: reply?.code === undefined ? undefined : String(reply.code),
});

/** Midjourney and MidjourneyPlus: midjourney-proxy servers, reached only through the /mj relay. */
export const midjourneyProvider: Provider = {
  types: [2, 5],
  endpoints: new Set(),
  request() {
    throw new RelayError(
      400,
      "Midjourney channels serve only the /mj routes",
      "unsupported_endpoint",
      "invalid_request_error",
    );
  },
  errorOf: midjourneyErrorOf,
  tasks: midjourneyTasks,
};
