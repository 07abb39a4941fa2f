/** The relay's refusals live in src/shared, where the providers (which never import the service) reach them too. */
export { RelayError, invalidRequest } from "../../shared/relay-error";
