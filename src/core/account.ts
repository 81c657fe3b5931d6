// A connected account as the code that calls its network sees it (publishing, engagement, inbound).
import type { NetworkId } from './network-id.ts';

/** A connected account as an adapter sees it: decrypted credentials, never logged. */
export interface AccountCredentials {
  id: number;
  orgId: number;
  network: NetworkId;
  username: string;
  networkUniqueId: string;
  serviceUrl: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  /** A long-lived credential used instead of OAuth (an app password). */
  credential: string | null;
  /**
   * Connected through the operator's own app of the network (CRIER_<NETWORK>_CLIENT_ID/_SECRET, the
   * "managed key") rather than an app the organization registered (POST /v1/social-networks).
   */
  managedApp?: boolean;
}
