// Connecting accounts through a network's OAuth: the authorize URL with a single-use state stored
// server-side (PKCE where the network uses it), then the callback that consumes the state,
// exchanges the code with the org's own app and either stores the account or, when the login grants
// several (pages, organizations, locations), opens a pending connection for the user to pick from.
// Which network does what is behind NetworkOAuth (src/networks/<network>/oauth.ts).
// A federated network (NetworkOAuth.instances: Mastodon) has no org app: the connect names the
// server (`instance_url`), Crier's own app there is used (registered on first use, kept per server:
// social-networks.ts), the state keeps the server's origin, and the callback exchanges the code there.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { encodeId } from '../core/ids.ts';
import { OAuthError, type NetworkOAuth } from '../networks/oauth.ts';
import { networkFor } from '../networks/registry.ts';
import { credentialFieldsOf } from '../networks/contract.ts';
import { isNetworkId, NETWORKS } from '../networks/ids.ts';
import type { NetworkId } from '../core/network-id.ts';
import { type ManagedApps } from '../config.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createConnectedSession, createPendingConnection } from './pending-connections.ts';
import { accountApp, connectApp, dropInstanceApp, instanceApp, storedInstanceApp, type ConnectApp, type InstanceAppKey } from './social-networks.ts';
import { upsertSocialAccount } from './social-accounts.ts';

const STATE_TTL_MINUTES = 10;
/** The name Crier's own app is registered with on a federated network's servers (statuses show "via Crier"). */
const INSTANCE_APP_NAME = 'Crier';
export const TENANT_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface OAuthSettings {
  /** Crier's public base URL: the callback is `<publicBaseUrl>/oauth/callback/<network>`. */
  publicBaseUrl: string;
  providers: Partial<Record<NetworkId, NetworkOAuth>>;
  /** Accounts connected are emulator accounts (`crier start --sandbox`). */
  sandbox: boolean;
  /** The operator's apps, for organizations that registered none of a network. */
  managedApps: ManagedApps;
  /** The scopes a connect asking for `messaging` adds, for the networks with direct messages. */
  messagingScopes?: Partial<Record<NetworkId, readonly string[]>>;
  /** CRIER_REDIRECT_ORIGINS: where a `redirect_uri` may point besides publicBaseUrl's origin; absent: any http(s) URL. */
  redirectOrigins?: readonly string[];
}

export const callbackUrl = (settings: OAuthSettings, network: NetworkId) => `${settings.publicBaseUrl}/oauth/callback/${network}`;
const hashState = (state: string) => createHash('sha256').update(state).digest();
const verifierData = (stateHash: Buffer) => `oauth_states:${stateHash.toString('hex')}:verifier`;

function providerFor(settings: OAuthSettings, network: NetworkId): NetworkOAuth {
  const provider = settings.providers[network];
  if (provider) return provider;
  const { connect, label } = networkFor(network);
  if (connect.kind === 'password') {
    const fields = credentialFieldsOf(connect).map((field) => field.name).join(', ');
    throw new RequestError(400, `${label} accounts connect with ${connect.fields ? 'credentials' : 'an app password'}: POST /v1/social-accounts/${network} {${fields}}`, { code: 'unsupported_network' });
  }
  throw new RequestError(400, `Connecting ${network} accounts through OAuth is not available in this Crier version`, { code: 'unsupported_network' });
}

/** POST /v1/social-networks/:network/auth-url */
export async function createAuthUrl(
  db: Db,
  box: SecretBox,
  settings: OAuthSettings,
  orgId: number,
  network: string,
  input: { redirect_uri?: unknown; tenant_id?: unknown; scopes?: unknown; instance_url?: unknown },
): Promise<string> {
  const issues: FieldIssue[] = [];
  const messaging = requestedMessaging(settings, network, input.scopes, issues);
  const redirectProblem = input.redirect_uri === undefined || input.redirect_uri === null ? undefined : redirectUriProblem(settings, input.redirect_uri);
  if (redirectProblem) issues.push({ field: 'redirect_uri', message: redirectProblem });
  if (input.tenant_id !== undefined && input.tenant_id !== null && (typeof input.tenant_id !== 'string' || !TENANT_ID.test(input.tenant_id))) {
    issues.push({ field: 'tenant_id', message: 'may only contain letters, digits, "_" and "-" (1 to 128 characters)' });
  }
  if (!isNetworkId(network)) issues.push({ field: 'network', message: `must be a network identifier: ${NETWORKS.join(', ')}` });
  if (issues.length) throw validationError(issues);
  const provider = providerFor(settings, network as NetworkId);
  const instance = await instanceOf(provider, input.instance_url);
  const app = instance ? await serverApp(db, box, settings, provider, instance) : await connectApp(db, box, orgId, provider.network, settings.managedApps);
  if (!app) {
    throw new RequestError(400, `Register your ${network} app first: POST /v1/social-networks {network: "${network}", client_key, client_secret} (this Crier has no managed ${network} app: CRIER_${network.toUpperCase()}_CLIENT_ID)`, { code: 'app_not_registered' });
  }
  const state = randomBytes(32).toString('base64url');
  const stateHash = hashState(state);
  const verifier = provider.pkce ? randomBytes(32).toString('base64url') : undefined;
  await db.query(
    `INSERT INTO oauth_states (state_hash, org_id, network, code_verifier_enc, redirect_uri, tenant_id, managed_app, messaging, instance_origin, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(mins => $10))`,
    [stateHash, orgId, network, verifier ? box.encrypt(verifier, verifierData(stateHash)) : null, input.redirect_uri ?? null, input.tenant_id ?? null, app.managed, messaging.length > 0, instance ?? null, STATE_TTL_MINUTES],
  );
  const codeChallenge = verifier && createHash('sha256').update(verifier).digest('base64url');
  // A server's app asks for what Crier asks for, never more than it was registered with.
  const scopes = [...new Set([...(instance ? provider.scopes : app.scopes ?? provider.scopes), ...messaging])];
  return provider.authorizeUrl(app, { redirectUri: callbackUrl(settings, provider.network), state, scopes, codeChallenge, ...(instance ? { instance } : {}) });
}

/**
 * The server a federated network's connect is for (its origin), from `instance_url`: required for
 * such a network, refused for the others. Undefined for a network without servers.
 */
async function instanceOf(provider: NetworkOAuth, raw: unknown): Promise<string | undefined> {
  const { instances } = provider;
  const field = instances?.field ?? 'instance_url';
  if (!instances) {
    if (raw === undefined || raw === null) return undefined;
    throw validationError([{ field, message: `${provider.network} accounts do not live on a server of their own choosing: leave ${field} out` }]);
  }
  if (raw === undefined || raw === null || raw === '') {
    throw validationError([{ field, message: `is required: the address of the ${networkFor(provider.network).label} server the account lives on (its https address, or its host name)` }]);
  }
  const judged = await instances.origin(raw);
  if ('problem' in judged) throw validationError([{ field, message: judged.problem }]);
  return judged.origin;
}

const instanceKey = (settings: OAuthSettings, provider: NetworkOAuth, origin: string): InstanceAppKey =>
  ({ network: provider.network, origin, redirectUri: callbackUrl(settings, provider.network) });

/** Crier's own app on the server (stored, else registered now); a server that refuses or cannot be reached is the field's problem. */
async function serverApp(db: Db, box: SecretBox, settings: OAuthSettings, provider: NetworkOAuth, origin: string): Promise<ConnectApp> {
  const instances = provider.instances!;
  try {
    const app = await instanceApp(db, box, instances, instanceKey(settings, provider, origin), { scopes: provider.scopes, name: INSTANCE_APP_NAME, website: settings.publicBaseUrl });
    return { ...app, managed: false };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error.kind === 'transient') throw new RequestError(502, `Could not register Crier's app on ${origin}: ${error.message}`, { code: 'network_unavailable' });
    throw new RequestError(400, `The server refused to register Crier's app: ${error.message}`, { code: 'instance_app_refused', details: [{ field: instances.field, message: `${origin} did not register Crier's app (${error.message})` }] });
  }
}

/**
 * `scopes: ["messaging"]`: the account will receive and send direct messages; the network's
 * messaging scopes are added to the connect's. Empty when not asked for.
 */
function requestedMessaging(settings: OAuthSettings, network: string, scopes: unknown, issues: FieldIssue[]): readonly string[] {
  if (scopes === undefined || scopes === null) return [];
  const offered = isNetworkId(network) ? settings.messagingScopes?.[network] : undefined;
  if (!Array.isArray(scopes) || !scopes.every((scope) => scope === 'messaging')) {
    issues.push({ field: 'scopes', message: 'may only be ["messaging"] (direct messages), or left out' });
    return [];
  }
  if (!scopes.length) return [];
  if (!offered) {
    const which = Object.keys(settings.messagingScopes ?? {}).join(', ') || 'none';
    issues.push({ field: 'scopes', message: `"messaging" is available for networks with direct messages only (${which})` });
    return [];
  }
  return offered;
}

export type CallbackOutcome =
  | { kind: 'connected'; accountId: number; orgId: number; redirectUri: string | null; session?: string }
  | { kind: 'pending'; session: string; expiresAt: Date; orgId: number; redirectUri: string | null }
  | { kind: 'failed'; error: string; description: string; status: number; redirectUri: string | null };

interface SavedState {
  org_id: number;
  network: NetworkId;
  code_verifier_enc: Buffer | null;
  redirect_uri: string | null;
  tenant_id: string | null;
  managed_app: boolean;
  messaging: boolean;
  instance_origin: string | null;
  expired: boolean;
}

/** GET /oauth/callback/:network?code&state (or ?error&state when the user declined). */
export async function completeCallback(db: Db, box: SecretBox, settings: OAuthSettings, network: string, query: Record<string, unknown>): Promise<CallbackOutcome> {
  const state = typeof query.state === 'string' ? query.state : '';
  if (!state) throw new RequestError(400, 'The callback has no state: start again from the auth URL', { code: 'invalid_state' });
  const stateHash = hashState(state);
  // Deleting is what makes a state single-use, even with two callbacks racing.
  const { rows } = await db.query<SavedState>(
    `DELETE FROM oauth_states WHERE state_hash = $1 RETURNING org_id, network, code_verifier_enc, redirect_uri, tenant_id, managed_app, messaging, instance_origin, expires_at <= now() AS expired`,
    [stateHash],
  );
  const saved = rows[0];
  if (!saved || saved.network !== network) throw new RequestError(400, 'Unknown or already used state: start again from a new auth URL', { code: 'invalid_state' });
  if (saved.expired) throw new RequestError(400, `The connect link expired (it is valid ${STATE_TTL_MINUTES} minutes): start again from a new auth URL`, { code: 'invalid_state' });
  const failed = (error: string, description: string, status = 400): CallbackOutcome => ({ kind: 'failed', error, description, status, redirectUri: saved.redirect_uri });
  if (typeof query.error === 'string') return failed(query.error, typeof query.error_description === 'string' ? query.error_description : 'The user did not authorize the app');
  const code = typeof query.code === 'string' ? query.code : '';
  if (!code) return failed('invalid_request', 'The callback has no code');

  const provider = providerFor(settings, saved.network);
  // The app the connect began with: the code was issued to it.
  const instance = saved.instance_origin ?? undefined;
  const app = instance
    ? await storedInstanceApp(db, box, instanceKey(settings, provider, instance)).then((found) => found && { ...found, managed: false })
    : await accountApp(db, box, { org_id: saved.org_id, network: saved.network, managed_app: saved.managed_app }, settings.managedApps);
  if (!app) return failed('app_not_registered', `The ${network} app this connect began with was removed during the connect`);
  const codeVerifier = saved.code_verifier_enc ? box.decrypt(saved.code_verifier_enc, verifierData(stateHash)) : undefined;
  let login;
  try {
    login = await provider.connect(app, { code, redirectUri: callbackUrl(settings, saved.network), codeVerifier, ...(instance ? { instance } : {}) });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error.kind === 'client' && instance) {
      // The server no longer knows Crier's app (an admin removed it): forgotten, the next connect registers a new one.
      await dropInstanceApp(db, instanceKey(settings, provider, instance), app.clientId);
      return failed('app_credentials_rejected', `${instance} no longer accepts Crier's app (${error.message}): connect again, a new app will be registered there`);
    }
    // Refused app credentials are the org's to fix (POST /v1/social-networks), not the user's.
    if (error.kind === 'client') return failed('app_credentials_rejected', `${network} refused the registered app's credentials: ${error.message}`);
    return failed('oauth_failed', `Could not connect the account: ${error.message}`, error.kind === 'transient' ? 502 : 400);
  }
  if (!login.candidates.length) return failed('no_accounts', `The ${network} login granted no account Crier can publish to`);
  if (login.choose) {
    const pending = await createPendingConnection(db, box, { orgId: saved.org_id, network: saved.network, tenantId: saved.tenant_id, redirectUri: saved.redirect_uri, sandbox: settings.sandbox, managedApp: app.managed, messaging: saved.messaging, candidates: login.candidates });
    return { kind: 'pending', ...pending, orgId: saved.org_id, redirectUri: saved.redirect_uri };
  }
  const [account] = login.candidates;
  const accountId = await upsertSocialAccount(db, box, {
    orgId: saved.org_id,
    network: saved.network,
    username: account!.username,
    nickname: account!.name,
    networkUniqueId: account!.id,
    accountType: account!.type,
    tenantId: saved.tenant_id,
    profilePictureUrl: account!.profilePictureUrl,
    sandbox: settings.sandbox,
    managedApp: app.managed,
    messaging: saved.messaging,
    ...(account!.serviceUrl ? { serviceUrl: account!.serviceUrl } : {}),
    ...(account!.keepTokenAs === 'credential' ? { credential: account!.tokens.accessToken } : account!.tokens),
  });
  if (!saved.redirect_uri) return { kind: 'connected', accountId, orgId: saved.org_id, redirectUri: null };
  // Clients of the hosted API read only ?session= on the redirect: give them one beside account_id.
  const { session } = await createConnectedSession(db, box, { orgId: saved.org_id, network: saved.network, tenantId: saved.tenant_id, redirectUri: saved.redirect_uri, accountId, candidate: account! });
  return { kind: 'connected', accountId, orgId: saved.org_id, redirectUri: saved.redirect_uri, session };
}

/** Where the user's browser goes after the callback, or null when the connect gave no redirect_uri. */
export function redirectTarget(outcome: CallbackOutcome): string | null {
  if (!outcome.redirectUri) return null;
  const url = new URL(outcome.redirectUri);
  if (outcome.kind === 'connected') {
    url.searchParams.set('account_id', encodeId(outcome.accountId));
    if (outcome.session) url.searchParams.set('session', outcome.session);
  } else if (outcome.kind === 'pending') url.searchParams.set('session', outcome.session);
  else {
    url.searchParams.set('error', outcome.error);
    url.searchParams.set('error_description', outcome.description);
  }
  return url.toString();
}

/**
 * The user is sent to `redirect_uri` with the connection's session. Any http(s) URL the org's key
 * chooses, unless the operator named the allowed origins (CRIER_REDIRECT_ORIGINS); Crier's own
 * origin (the dashboard) is always allowed.
 */
function redirectUriProblem(settings: OAuthSettings, value: unknown): string | undefined {
  if (!isHttpUrl(value)) return 'must be an http(s) URL; the user is sent there after connecting';
  if (!settings.redirectOrigins) return undefined;
  const allowed = [new URL(settings.publicBaseUrl).origin, ...settings.redirectOrigins];
  return allowed.includes(new URL(value).origin) ? undefined : `must be on one of the origins this Crier allows (CRIER_REDIRECT_ORIGINS): ${allowed.join(', ')}`;
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
