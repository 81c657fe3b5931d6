// A Bluesky account's session with the official client (@atproto/api), for publishing and for the
// engagement calls alike: resumed from the stored tokens (refreshed and saved as needed) or opened
// with the app password, at the account's PDS through the SSRF guard (pds.ts); and what its errors
// mean as PublishError.
import { AtpAgent, XRPCError, type AtpSessionData } from '@atproto/api';
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { isTransientSsrf, ssrfCause } from '../../security/ssrf.ts';
import { isServiceOrigin, pdsFetch } from './pds.ts';

/**
 * Resumes the stored session (refreshing it if needed), or logs in with the app password, at the
 * account's PDS. A PDS address the guard refuses ends it there: nothing is sent to it.
 */
export async function openSession(input: AccountSession, service: string): Promise<AtpAgent> {
  const saves: Promise<void>[] = [];
  const agent = new AtpAgent({
    service: input.account.serviceUrl ?? service,
    fetch: pdsFetch(service, input.userFetch),
    persistSession: (_event, session) => {
      if (session) saves.push(input.saveTokens({ accessToken: session.accessJwt, refreshToken: session.refreshJwt }));
    },
  });
  const classify = classifierFor(agent, service);
  const { accessToken, refreshToken, credential, networkUniqueId, username } = input.account;
  let resumed = false;
  if (accessToken && refreshToken) {
    const session: AtpSessionData = { accessJwt: accessToken, refreshJwt: refreshToken, did: networkUniqueId, handle: username, active: true };
    try {
      await agent.resumeSession(session);
      resumed = true;
    } catch (error) {
      // An expired session falls back to the app password; a refused address would refuse that too.
      if (ssrfCause(error)) throw classify(error, 'resuming the session');
    }
  }
  if (!resumed) {
    if (!credential) throw new PublishError('auth', 'bluesky: the session expired and no app password is stored; reconnect the account');
    try {
      await agent.login({ identifier: networkUniqueId || username, password: credential });
    } catch (error) {
      throw classify(error, 'logging in');
    }
  }
  await Promise.all(saves);
  return agent;
}

export type Classifier = (error: unknown, doing: string) => PublishError;

/**
 * XRPC errors -> PublishError. The reason is the server's own words when every address the agent calls
 * is the configured service; from the account's own PDS, only its error name and status.
 */
export function classifierFor(agent: AtpAgent, service: string): Classifier {
  const trusted = () => isServiceOrigin(agent.serviceUrl, service) && isServiceOrigin(agent.dispatchUrl, service);
  return (error, doing) => classify(error, doing, trusted());
}

/** A bogus or expired token is a 400 on the PDS, yet an auth problem. */
function classify(error: unknown, doing: string, trusted: boolean): PublishError {
  if (error instanceof PublishError) return error;
  const refused = ssrfCause(error);
  if (refused) {
    const reason = `bluesky: the account's PDS address was refused (${refused.message}) while ${doing}`;
    return isTransientSsrf(refused) ? new PublishError('retryable', reason) : new PublishError('permanent', `${reason}; reconnect the account`);
  }
  if (error instanceof XRPCError) {
    const reason = trusted ? `${error.error ?? 'Error'}: ${error.message}` : shortReason(error);
    if (error.status === 401 || ['ExpiredToken', 'InvalidToken', 'AuthenticationRequired', 'AccountTakedown'].includes(error.error ?? '')) {
      return new PublishError('auth', `bluesky: ${reason} while ${doing}; reconnect the account`, undefined, 'auth');
    }
    if (error.status === 429) {
      const reset = Number(error.headers?.['ratelimit-reset']);
      return new PublishError('retryable', `bluesky: rate limited (${reason})`, reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : 60_000, 'rate_limited');
    }
    if (error.status >= 500 || error.status === 1) return new PublishError('retryable', `bluesky: ${reason} while ${doing}`, undefined, 'server');
    const missing = ['NotFound', 'RecordNotFound'].includes(error.error ?? '');
    return new PublishError('permanent', `bluesky: ${reason}`, undefined, missing ? 'not_found' : 'invalid');
  }
  return new PublishError('retryable', `bluesky: ${(error as Error).message ?? String(error)} while ${doing}`);
}

/** What an untrusted server said, reduced to what cannot carry its text: an XRPC error name and the status. */
function shortReason(error: XRPCError): string {
  const name = /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(error.error ?? '') ? error.error : 'Error';
  return `${name} (the account's PDS ${error.status >= 100 ? `answered HTTP ${error.status}` : 'gave no valid answer'})`;
}
