// X OAuth 2.0 (authorization code with PKCE, confidential client): the authorize URL, the code
// exchange, the refresh grant and the identity of the connected user. The network's error bodies
// are classified here so callers only see what to do next.

/** What publishing needs; `offline.access` is what makes X issue a refresh token. */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'];

export interface XApp {
  clientId: string;
  clientSecret: string;
}

export interface XTokens {
  accessToken: string;
  /** Absent when X did not send one: the stored one stays. */
  refreshToken: string | undefined;
  expiresAt: Date | null;
  scope: string;
}

export interface XIdentity {
  id: string;
  username: string;
  name: string;
  profileImageUrl: string | null;
}

/**
 * Why a token call failed. `revoked`: the grant (code or refresh token) is no longer valid, the
 * user must connect again; `client`: the app's credentials were refused; `transient`: try later.
 */
export class XOAuthError extends Error {
  readonly kind: 'revoked' | 'client' | 'transient';

  constructor(kind: 'revoked' | 'client' | 'transient', message: string) {
    super(message);
    this.kind = kind;
  }
}

export function xAuthorizeUrl(authorizeUrl: string, app: { clientId: string }, input: { redirectUri: string; state: string; codeChallenge: string }): string {
  const url = new URL(authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: input.redirectUri,
    scope: X_SCOPES.join(' '),
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

export function exchangeXCode(apiUrl: string, app: XApp, input: { code: string; redirectUri: string; codeVerifier: string }): Promise<XTokens> {
  return tokenRequest(apiUrl, app, { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier });
}

/** X refresh tokens are single-use: the caller must store the new one before anything else uses it. */
export function refreshXToken(apiUrl: string, app: XApp, refreshToken: string): Promise<XTokens> {
  return tokenRequest(apiUrl, app, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

export async function fetchXIdentity(apiUrl: string, accessToken: string): Promise<XIdentity> {
  const res = await call(`${apiUrl}/2/users/me?user.fields=profile_image_url`, { headers: { authorization: `Bearer ${accessToken}` } });
  const body = (await res.json().catch(() => undefined)) as { data?: { id?: string; username?: string; name?: string; profile_image_url?: string } } | undefined;
  const user = body?.data;
  if (!res.ok || !user?.id || !user.username) throw new XOAuthError('transient', `x: could not read the connected user (HTTP ${res.status})`);
  return { id: user.id, username: user.username, name: user.name ?? user.username, profileImageUrl: user.profile_image_url ?? null };
}

async function tokenRequest(apiUrl: string, app: XApp, form: Record<string, string>): Promise<XTokens> {
  const basic = Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString('base64');
  const res = await call(`${apiUrl}/2/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (res.ok && typeof body?.access_token === 'string') {
    const expiresIn = Number(body.expires_in);
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined,
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : null,
      scope: typeof body.scope === 'string' ? body.scope : '',
    };
  }
  const error = typeof body?.error === 'string' ? body.error : undefined;
  const reason = `x: ${error ?? `HTTP ${res.status}`}${typeof body?.error_description === 'string' ? ` (${body.error_description})` : ''}`;
  if (res.status === 401 || error === 'invalid_client' || error === 'unauthorized_client') throw new XOAuthError('client', reason);
  // X answers a used, revoked or expired grant with invalid_request ("Value passed for the token was
  // invalid.") where RFC 6749 says invalid_grant: both mean the user has to connect again.
  if (res.status === 400 && (error === 'invalid_grant' || error === 'invalid_request')) throw new XOAuthError('revoked', reason);
  throw new XOAuthError('transient', reason);
}

async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new XOAuthError('transient', `x: could not reach the API (${(error as Error).message})`);
  }
}
