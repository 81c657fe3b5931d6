// Connecting a Bluesky account with an app password: validated by logging in; the app password is
// kept (encrypted) so the session can always be re-established, and the session tokens with it.
import { AtpAgent, XRPCError } from '@atproto/api';
import { RequestError } from '../../errors.ts';

export interface BlueskyIdentity {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
  /** The account's own PDS when the entryway told us (e.g. bsky.social -> a *.host.bsky.network). */
  serviceUrl: string;
}

export async function loginWithAppPassword(service: string, handle: string, appPassword: string): Promise<BlueskyIdentity> {
  const agent = new AtpAgent({ service });
  try {
    const res = await agent.login({ identifier: handle, password: appPassword });
    return {
      did: res.data.did,
      handle: res.data.handle,
      accessJwt: res.data.accessJwt,
      refreshJwt: res.data.refreshJwt,
      serviceUrl: (agent.pdsUrl ?? agent.serviceUrl).toString().replace(/\/+$/, ''),
    };
  } catch (error) {
    if (error instanceof XRPCError && (error.status === 401 || error.status === 400)) {
      throw new RequestError(400, `Bluesky refused the login: ${error.message}`, {
        code: 'bluesky_login_failed',
        details: [{ field: 'appPassword', message: 'the handle and app password were not accepted by Bluesky' }],
      });
    }
    throw new RequestError(502, `Bluesky could not be reached to validate the account: ${(error as Error).message}`, { code: 'network_unavailable' });
  }
}
