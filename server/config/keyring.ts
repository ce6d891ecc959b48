import { loadKeyring } from "../svc/keyring";
import type { Keyring } from "../svc/types";
import { getEnv } from "./env";

let defaultKeyring: Keyring | undefined;
/** The service's keyring, read once from the environment; the edges pass it to the `.svc` core. */
export function getKeyring(): Keyring {
  const env = getEnv();
  defaultKeyring ??= loadKeyring({ SVC_KEYRING: env.SVC_KEYRING, SVC_DISABLE_DEV_KEY: env.SVC_DISABLE_DEV_KEY ? "1" : "0" });
  return defaultKeyring;
}
