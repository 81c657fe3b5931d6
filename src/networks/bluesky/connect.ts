// Connecting a Bluesky account with an app password: validated by logging in; the app password is
// kept (encrypted) so the session can always be re-established, and the session tokens with it.
import { RequestError } from '../../core/errors.ts';
import { lazy } from '../../lazy.ts';
import { isTransientSsrf, SsrfError } from '../../security/ssrf.ts';
import { checkPdsAddress } from './pds.ts';

export interface BlueskyIdentity {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
  /** The account's own PDS when the entryway told us (e.g. bsky.social -> a *.host.bsky.network). */
  serviceUrl: string;
}

/**
 * Logs in at the configured service (the only address contacted), then checks the PDS address the
 * account's DID document names, since publishing will send the account's tokens there. `allowLoopback`
 * is the guard's test switch (CRIER_ALLOW_LOOPBACK_FETCH).
 */
export async function loginWithAppPassword(service: string, handle: string, appPassword: string, options: { allowLoopback?: boolean } = {}): Promise<BlueskyIdentity> {
  // Loaded outside the try: a client that fails to load is Crier's failure, not Bluesky's answer.
  const { AtpAgent, XRPCError } = await atproto();
  const agent = new AtpAgent({ service });
  try {
    const res = await agent.login({ identifier: handle, password: appPassword });
    const serviceUrl = (agent.pdsUrl ?? agent.serviceUrl).toString().replace(/\/+$/, '');
    await checkPdsAddress(serviceUrl, service, options.allowLoopback ?? false);
    return { did: res.data.did, handle: res.data.handle, accessJwt: res.data.accessJwt, refreshJwt: res.data.refreshJwt, serviceUrl };
  } catch (error) {
    throw connectError(error, XRPCError);
  }
}

const atproto = lazy('@atproto/api (connecting a Bluesky account)', () => import('@atproto/api'));

function connectError(error: unknown, XRPCError: typeof import('@atproto/api').XRPCError): RequestError {
  if (error instanceof SsrfError && !isTransientSsrf(error)) {
    return new RequestError(400, `The account's Bluesky server (PDS) address is not allowed: ${error.message}`, {
      code: 'bluesky_pds_refused',
      details: [{ field: 'handle', message: `the account's DID document names a PDS address Crier does not call (${error.message}); only public https addresses are allowed` }],
    });
  }
  if (error instanceof XRPCError && (error.status === 401 || error.status === 400)) {
    return new RequestError(400, `Bluesky refused the login: ${error.message}`, {
      code: 'bluesky_login_failed',
      details: [{ field: 'appPassword', message: 'the handle and app password were not accepted by Bluesky' }],
    });
  }
  return new RequestError(502, `Bluesky could not be reached to validate the account: ${(error as Error).message}`, { code: 'network_unavailable' });
}
