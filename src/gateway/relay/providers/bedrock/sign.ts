import type Aws4 from "aws4";
import type { AwsAccess } from "./credentials";

/**
 * SigV4 headers for one request (aws4: synchronous, so a provider's request hook can sign). The path is sent as
 * it is given (already percent-encoded once, as AWS expects for a model id with `:`).
 */
export function signedHeaders(
  url: string,
  method: "GET" | "POST",
  service: "bedrock",
  access: AwsAccess,
  body?: string,
): Record<string, string> {
  const { host, pathname, search } = new URL(url);
  const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
  const signed = (require("aws4") as typeof Aws4).sign(
    { host, path: pathname + search, method, service, region: access.region, headers, body },
    access.credentials,
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers ?? {}))
    if (name.toLowerCase() !== "host" && name.toLowerCase() !== "content-length")
      out[name.toLowerCase()] = String(value);
  return out;
}
