// The OAuth side of a network, as src/accounts sees it: the authorize URL, the code exchange that
// yields the accounts one login grants, and the refresh. Each network implements it in
// src/networks/<network>/oauth.ts; the network's error bodies are classified there, so callers only
// see OAuthError kinds. Also the small HTTP helpers every implementation shares.
import { exchange } from './http.ts';
import type { NetworkId } from '../core/network-id.ts';

/** The org's own app on the network (POST /v1/social-networks). */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** A saved login configuration the dialog presents instead of scopes (Network.connect.loginConfiguration). */
  loginConfigId?: string;
}

export interface OAuthTokens {
  accessToken: string;
  /** Absent when the network sent none: the stored one stays (docs/design.md §8). */
  refreshToken?: string;
  /** null: the token does not expire (a Facebook Page token, a Vimeo token). */
  expiresAt: Date | null;
}

/** One account a login grants: the member, a page, an organization, a channel, a location. */
export interface ConnectCandidate {
  /** The network's unique id for it (network_unique_id). */
  id: string;
  /** What it is on the network: profile, page, organization, member, channel, location… (accountType). */
  type: string;
  name: string;
  username: string;
  profilePictureUrl: string | null;
  /** What this account publishes with (a Facebook Page has a token of its own). */
  tokens: OAuthTokens;
  /** Where its API is (a Mastodon account's instance), kept as the account's service_url. */
  serviceUrl?: string;
  /**
   * 'credential': the access token is kept where the network's credential connect keeps its token
   * (it never expires, nothing refreshes it), so both ways store the same account the same way.
   */
  keepTokenAs?: 'credential';
}

export interface OAuthLogin {
  candidates: ConnectCandidate[];
  /**
   * true: the user picks which to connect (the callback redirects with ?session=<token>), even when
   * there is only one, so a network always answers the same way.
   */
  choose: boolean;
}

export interface NetworkOAuth {
  network: NetworkId;
  /** PKCE S256 is sent (x requires it). */
  pkce: boolean;
  /** The scopes asked for by default, in the network's order (an app registered with its own scopes replaces them). */
  scopes: readonly string[];
  /** `instance`: the server's origin, for a network with `instances`. */
  authorizeUrl(app: OAuthApp, input: { redirectUri: string; state: string; scopes: readonly string[]; codeChallenge?: string; instance?: string }): string;
  /** Exchanges the code (and, where the network has one, for a long-lived token), then lists the accounts. */
  connect(app: OAuthApp, input: { code: string; redirectUri: string; codeVerifier?: string; instance?: string }): Promise<OAuthLogin>;
  /**
   * A federated network (Mastodon): each connect names the server the account lives on, and the app
   * is Crier's own, registered on that server on first use and kept per server (no org app, no
   * managed app).
   */
  instances?: NetworkInstances;
  /**
   * Absent when the network has no refresh (Facebook Page tokens and Vimeo tokens do not expire; a
   * LinkedIn app without refresh tokens reconnects). `credential` is what `refreshUses` names.
   */
  refresh?(app: OAuthApp, credential: string): Promise<OAuthTokens>;
  /** What a refresh presents: the refresh token, or the long-lived access token itself (Threads). */
  refreshUses?: 'refresh_token' | 'access_token';
  /** How long before expiry a token is refreshed. */
  refreshAheadSecs: number;
}

/** The servers of a federated network, as a connect meets them. */
export interface NetworkInstances {
  /** The field of POST /v1/social-networks/:network/auth-url that names the server. */
  field: string;
  /**
   * The server's origin from what the user typed, or why it is refused (malformed, or an address the
   * SSRF guard refuses), said for the field's details.
   */
  origin(input: unknown): Promise<{ origin: string } | { problem: string }>;
  /**
   * Registers Crier's app on the server. OAuthError: `client` when the server refuses the
   * registration or the address, `transient` when it cannot be reached.
   */
  register(origin: string, input: { redirectUri: string; scopes: readonly string[]; name: string; website: string }): Promise<OAuthApp & { scopes: readonly string[] }>;
}

export type OAuthErrorKind = 'revoked' | 'client' | 'transient';

/**
 * Why a token call failed. `revoked`: the grant (code or refresh token) is no longer valid, the user
 * must connect again; `client`: the app's credentials were refused; `transient`: try later.
 */
export class OAuthError extends Error {
  readonly kind: OAuthErrorKind;

  constructor(kind: OAuthErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** Every host a network is reached at; CRIER_<NETWORK>_BASE_URL (tests, sandbox) replaces all of them by one origin. */
export function networkHosts<T extends Record<string, string>>(defaults: T, override: string | undefined): T {
  if (!override) return defaults;
  const base = override.replace(/\/+$/, '');
  return Object.fromEntries(Object.keys(defaults).map((name) => [name, base])) as T;
}

export function basicAuth(app: OAuthApp): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString('base64')}`;
}

export function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

export interface OAuthResponse {
  status: number;
  ok: boolean;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: any;
}

/**
 * One call to a network during a connect or refresh, on the networks' HTTP client (http.ts): its
 * pool and deadlines; no redirects are followed (a 3xx is an answer like any other), unreachable is
 * `transient`.
 */
export async function oauthCall(network: NetworkId, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<OAuthResponse> {
  let answer;
  try {
    answer = await exchange(url, init);
  } catch (error) {
    throw new OAuthError('transient', `${network}: could not reach the API (${(error as Error).message})`);
  }
  // Only JSON counts as a body here: a text answer is no token response.
  const body = typeof answer.body === 'string' ? undefined : answer.body;
  return { status: answer.status, ok: answer.status >= 200 && answer.status < 300, body };
}

export const formBody = (form: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();

export const FORM = 'application/x-www-form-urlencoded';

/** Seconds from now, or null when the network gave no positive lifetime. */
export function expiresIn(seconds: unknown): Date | null {
  const secs = Number(seconds);
  return Number.isFinite(secs) && secs > 0 ? new Date(Date.now() + secs * 1000) : null;
}

/** The token fields of an RFC 6749 token response; an empty refresh token counts as none. */
export function standardTokens(body: any): OAuthTokens | undefined {
  if (typeof body?.access_token !== 'string' || !body.access_token) return undefined;
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined,
    expiresAt: expiresIn(body.expires_in),
  };
}

/**
 * RFC 6749 §5.2 errors: a dead grant is `revoked`, refused credentials are `client`, anything else
 * (5xx, throttling, unknown shapes) is `transient`.
 */
export function standardTokenError(network: NetworkId, res: OAuthResponse): OAuthError {
  const error = typeof res.body?.error === 'string' ? res.body.error : undefined;
  const description = typeof res.body?.error_description === 'string' ? ` (${res.body.error_description})` : '';
  const reason = `${network}: ${error ?? `HTTP ${res.status}`}${description}`;
  if (error === 'invalid_grant') return new OAuthError('revoked', reason);
  if (res.status === 401 || error === 'invalid_client' || error === 'unauthorized_client') return new OAuthError('client', reason);
  return new OAuthError('transient', reason);
}

/** A profile or page call that failed: a refused token means the login is unusable, the rest is transient. */
export function apiError(network: NetworkId, what: string, res: OAuthResponse): OAuthError {
  const kind: OAuthErrorKind = res.status === 401 || res.status === 403 ? 'revoked' : 'transient';
  return new OAuthError(kind, `${network}: could not read ${what} (HTTP ${res.status})`);
}
