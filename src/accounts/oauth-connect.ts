// Connecting an account through the network's OAuth (authorization code + PKCE): the authorize URL
// with a single-use state stored server-side, then the callback that consumes the state, exchanges
// the code with the org's own app and stores the account. Only X is wired so far.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import { RequestError, validationError } from '../errors.ts';
import { encodeId } from '../ids.ts';
import { isNetworkId, type FieldIssue, type NetworkId } from '../networks/types.ts';
import { exchangeXCode, fetchXIdentity, xAuthorizeUrl, XOAuthError } from '../networks/x/oauth.ts';
import type { SecretBox } from '../security/crypto.ts';
import { appCredentials } from './social-networks.ts';
import { upsertSocialAccount } from './social-accounts.ts';

const STATE_TTL_MINUTES = 10;
const TENANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface OAuthSettings {
  /** Crier's public base URL: the callback is `<publicBaseUrl>/oauth/callback/<network>`. */
  publicBaseUrl: string;
  xApiUrl: string;
  xAuthorizeUrl: string;
}

export const callbackUrl = (settings: OAuthSettings, network: NetworkId) => `${settings.publicBaseUrl}/oauth/callback/${network}`;
const hashState = (state: string) => createHash('sha256').update(state).digest();

/** POST /v1/social-networks/:network/auth-url */
export async function createAuthUrl(
  db: Db,
  box: SecretBox,
  settings: OAuthSettings,
  orgId: number,
  network: string,
  input: { redirect_uri?: unknown; tenant_id?: unknown },
): Promise<string> {
  const issues: FieldIssue[] = [];
  if (input.redirect_uri !== undefined && input.redirect_uri !== null && !isHttpUrl(input.redirect_uri)) {
    issues.push({ field: 'redirect_uri', message: 'must be an http(s) URL; the user is sent there after connecting' });
  }
  if (input.tenant_id !== undefined && input.tenant_id !== null && (typeof input.tenant_id !== 'string' || !TENANT_ID.test(input.tenant_id))) {
    issues.push({ field: 'tenant_id', message: 'may only contain letters, digits, "_" and "-" (1 to 128 characters)' });
  }
  if (!isNetworkId(network)) issues.push({ field: 'network', message: 'must be a network identifier such as "x"' });
  if (issues.length) throw validationError(issues);
  if (network !== 'x') throw new RequestError(400, `Connecting ${network} accounts through OAuth is not available yet in this Crier version`, { code: 'unsupported_network' });
  const app = await appCredentials(db, box, orgId, network);
  if (!app) {
    throw new RequestError(400, `Register your ${network} app first: POST /v1/social-networks {network: "${network}", client_key, client_secret}`, { code: 'app_not_registered' });
  }
  const state = randomBytes(32).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  await db.query(
    `INSERT INTO oauth_states (state_hash, org_id, network, code_verifier, redirect_uri, tenant_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(mins => $7))`,
    [hashState(state), orgId, network, verifier, input.redirect_uri ?? null, input.tenant_id ?? null, STATE_TTL_MINUTES],
  );
  return xAuthorizeUrl(settings.xAuthorizeUrl, app, { redirectUri: callbackUrl(settings, network), state, codeChallenge: challenge });
}

export type CallbackOutcome =
  | { kind: 'connected'; accountId: number; orgId: number; redirectUri: string | null }
  | { kind: 'denied'; error: string; redirectUri: string | null };

/** GET /oauth/callback/:network?code&state (or ?error&state when the user declined). */
export async function completeCallback(db: Db, box: SecretBox, settings: OAuthSettings, network: string, query: Record<string, unknown>): Promise<CallbackOutcome> {
  const state = typeof query.state === 'string' ? query.state : '';
  if (!state) throw new RequestError(400, 'The callback has no state: start again from the auth URL', { code: 'invalid_state' });
  // Deleting is what makes a state single-use, even with two callbacks racing.
  const { rows } = await db.query<{ org_id: number; network: string; code_verifier: string; redirect_uri: string | null; tenant_id: string | null; expired: boolean }>(
    `DELETE FROM oauth_states WHERE state_hash = $1 RETURNING org_id, network, code_verifier, redirect_uri, tenant_id, expires_at <= now() AS expired`,
    [hashState(state)],
  );
  const saved = rows[0];
  if (!saved || saved.network !== network) throw new RequestError(400, 'Unknown or already used state: start again from a new auth URL', { code: 'invalid_state' });
  if (saved.expired) throw new RequestError(400, `The connect link expired (it is valid ${STATE_TTL_MINUTES} minutes): start again from a new auth URL`, { code: 'invalid_state' });
  if (typeof query.error === 'string') return { kind: 'denied', error: query.error, redirectUri: saved.redirect_uri };
  const code = typeof query.code === 'string' ? query.code : '';
  if (!code) throw new RequestError(400, 'The callback has no code', { code: 'invalid_request' });

  const app = await appCredentials(db, box, saved.org_id, 'x');
  if (!app) throw new RequestError(400, 'The x app of this organization was removed during the connect', { code: 'app_not_registered' });
  try {
    const tokens = await exchangeXCode(settings.xApiUrl, app, { code, redirectUri: callbackUrl(settings, 'x'), codeVerifier: saved.code_verifier });
    const me = await fetchXIdentity(settings.xApiUrl, tokens.accessToken);
    const accountId = await upsertSocialAccount(db, box, {
      orgId: saved.org_id,
      network: 'x',
      username: me.username,
      nickname: me.name,
      networkUniqueId: me.id,
      tenantId: saved.tenant_id,
      profilePictureUrl: me.profileImageUrl,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
    });
    return { kind: 'connected', accountId, orgId: saved.org_id, redirectUri: saved.redirect_uri };
  } catch (error) {
    if (!(error instanceof XOAuthError)) throw error;
    throw new RequestError(error.kind === 'transient' ? 502 : 400, `Could not connect the account: ${error.message}`, { code: 'oauth_failed' });
  }
}

/** Where the user's browser goes after the callback. */
export function redirectTarget(outcome: CallbackOutcome): string | null {
  if (!outcome.redirectUri) return null;
  const url = new URL(outcome.redirectUri);
  if (outcome.kind === 'connected') url.searchParams.set('account_id', encodeId(outcome.accountId));
  else url.searchParams.set('error', outcome.error);
  return url.toString();
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
