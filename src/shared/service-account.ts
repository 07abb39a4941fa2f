import { ChannelConfigError } from "./channel-config-error";

/** The fields of a Google service account's JSON key that minting an access token needs. */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
  project_id: string;
  token_uri: string;
}

const REQUIRED = ["client_email", "private_key", "project_id", "token_uri"] as const;

/** Thrown for a key that is not a usable service-account JSON; the message never quotes the key. */
export class ServiceAccountKeyError extends ChannelConfigError {
  constructor(reason: string) {
    super(`the key is not a service account's JSON key: ${reason}`);
  }
}

function parsed(key: string): Record<string, unknown> {
  try {
    const value = JSON.parse(key);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  } catch {}
  throw new ServiceAccountKeyError("it is not a JSON object (paste the whole downloaded .json file)");
}

/** Keys read, so a channel's key is parsed once, not on every call. */
const read = new Map<string, ServiceAccount>();
const READ_KEPT = 256;

/** The service account a channel's key holds (the whole key is one JSON object). */
export function serviceAccountOf(key: string): ServiceAccount {
  let account = read.get(key);
  if (!account) {
    account = accountOf(key);
    if (read.size >= READ_KEPT) read.clear();
    read.set(key, account);
  }
  return account;
}

function accountOf(key: string): ServiceAccount {
  const json = parsed(key.trim());
  const missing = REQUIRED.filter((name) => typeof json[name] !== "string" || !(json[name] as string).trim());
  if (missing.length) throw new ServiceAccountKeyError(`${missing.join(", ")} missing`);
  if (!/-----BEGIN PRIVATE KEY-----/.test(json.private_key as string))
    throw new ServiceAccountKeyError("private_key is not a PEM private key");
  if (!/^https?:\/\//.test(json.token_uri as string)) throw new ServiceAccountKeyError("token_uri is not an address");
  const [client_email, private_key, project_id, token_uri] = REQUIRED.map((name) => json[name] as string);
  return { client_email: client_email!, private_key: private_key!, project_id: project_id!, token_uri: token_uri! };
}

/** `global`, or a region name of Google Cloud's shape (us-central1, europe-west4, northamerica-northeast1). */
export const isVertexRegion = (region: string): boolean =>
  region === "global" || /^[a-z]+(?:-[a-z]+)+[0-9]+$/.test(region);
