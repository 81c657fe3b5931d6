// Grants: what a user's consent produces. The code (single use, two minutes) is exchanged for the
// grant itself: an API key record of the user's organization named "MCP: <client name>" (so it is
// listed, limited and revoked on the keys page like any key), with an access token (an hour) and a
// refresh token (rotated on every use). Revoking the key record ends every token of the grant at
// once, since each lookup joins it. A code or a refresh token presented a second time means one of
// the two presenters stole it: the grant is revoked (OAuth 2.1 §4.3.1, RFC 6749 §4.1.2), except a
// refresh token presented again within seconds by its own client (reusedWithinGrace).
//
// A claim (marking a code or refresh token used) is committed on its own, before anything else is
// checked: a failed PKCE check still burns the code, so it cannot be guessed at.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { insertGrantKey, KEY_OWNER_COLUMNS, revokeApiKeyById, type KeyOwner } from '../orgs/api-keys.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import { findClient, type OAuthClient } from './clients.ts';
import { invalidClient, invalidGrant, OAuthError } from './errors.ts';
import { isOurResource, type OAuthUrls } from './metadata.ts';
import { verifierMatches } from './pkce.ts';
import { redirectUriMatches } from './redirect-uris.ts';
import { ACCESS_TOKEN_SECONDS, CODE_SECONDS, hashSecret, newAccessToken, newCode, newRefreshToken, REFRESH_REUSE_GRACE_SECONDS, REFRESH_TOKEN_SECONDS } from './tokens.ts';

/** RFC 6749 §5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

/** Who consented: the user of the API key the dashboard signed in with, and its organization. */
export interface Consenter {
  orgId: number;
  userId: number;
}

/** The name of the grant's key record on the keys page. */
export function grantKeyName(client: OAuthClient): string {
  return `MCP: ${client.name}`.slice(0, 100);
}

/** Stores a code for an approved request; the code itself is returned once. */
export async function issueCode(db: Queryable, request: AuthorizationRequest, consenter: Consenter): Promise<string> {
  const code = newCode();
  // Codes long past use are of no more help recognising a replay: dropped as new ones are made.
  await db.query("DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'");
  await db.query(
    `INSERT INTO oauth_codes (code_hash, client_id, org_id, user_id, redirect_uri, code_challenge, resource, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
    [code.hash, request.client.id, consenter.orgId, consenter.userId, request.redirectUri, request.codeChallenge, request.resource, CODE_SECONDS],
  );
  return code.value;
}

export interface CodeExchange {
  clientId: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  resource: string | undefined;
}

interface ClaimedCode {
  client_id: number;
  org_id: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  live: boolean;
}

/** The authorization_code grant: a new grant and its first tokens, or an OAuthError. */
export async function exchangeCode(db: Db, exchange: CodeExchange, urls: OAuthUrls): Promise<TokenResponse> {
  const client = await knownClient(db, exchange.clientId);
  const hash = hashSecret(exchange.code);
  const claimed = await db.query<ClaimedCode>(
    `UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL
     RETURNING client_id, org_id, user_id, redirect_uri, code_challenge, resource, expires_at > now() AS live`,
    [hash],
  );
  const code = claimed.rows[0];
  if (!code) {
    await revokeGrantOfReusedCode(db, hash);
    throw invalidGrant('The authorization code is unknown or was already used');
  }
  if (code.client_id !== client.id) throw invalidGrant('The authorization code was issued to another client');
  if (!code.live) throw invalidGrant('The authorization code has expired; authorize again');
  // RFC 6749 §4.1.3: the redirect_uri of the authorization request, as it was sent.
  if (exchange.redirectUri !== code.redirect_uri) throw invalidGrant('redirect_uri differs from the one of the authorization request');
  if (!verifierMatches(exchange.codeVerifier, code.code_challenge)) throw invalidGrant('code_verifier does not match the code_challenge (PKCE)');
  checkResource(exchange.resource, code.resource, urls);
  return withTransaction(db, async (tx) => {
    const keyId = await insertGrantKey(tx, code.org_id, code.user_id, grantKeyName(client));
    await tx.query('UPDATE oauth_codes SET api_key_id = $1 WHERE code_hash = $2', [keyId, hash]);
    return issueTokens(tx, { keyId, orgId: code.org_id, clientId: client.id, resource: code.resource });
  });
}

export interface RefreshExchange {
  clientId: string;
  refreshToken: string;
  resource: string | undefined;
}

interface ClaimedRefresh {
  api_key_id: number;
  org_id: number;
  client_id: number;
  resource: string;
  live: boolean;
  granted: boolean;
}

/** The refresh_token grant: the refresh token is used up and a new pair issued, or an OAuthError. */
export async function refreshGrant(db: Db, exchange: RefreshExchange, urls: OAuthUrls): Promise<TokenResponse> {
  const client = await knownClient(db, exchange.clientId);
  const hash = hashSecret(exchange.refreshToken);
  const claimed = await db.query<ClaimedRefresh>(
    `UPDATE oauth_tokens t SET used_at = now()
       FROM api_keys k
      WHERE t.token_hash = $1 AND t.kind = 'refresh' AND t.used_at IS NULL AND k.id = t.api_key_id
     RETURNING t.api_key_id, t.org_id, t.client_id, t.resource, t.expires_at > now() AS live, k.revoked_at IS NULL AS granted`,
    [hash],
  );
  const token = claimed.rows[0] ?? (await reusedWithinGrace(db, hash, client));
  if (!token) {
    await revokeGrantOfReusedRefresh(db, hash);
    throw invalidGrant('The refresh token is unknown or was already used');
  }
  if (token.client_id !== client.id) throw invalidGrant('The refresh token was issued to another client');
  if (!token.granted) throw invalidGrant('The grant was revoked; authorize again');
  if (!token.live) throw invalidGrant('The refresh token has expired; authorize again');
  checkResource(exchange.resource, token.resource, urls);
  return withTransaction(db, async (tx) => {
    // The grant's spent tokens are of no more use once expired: a used refresh token stays until then (replay detection).
    await tx.query('DELETE FROM oauth_tokens WHERE api_key_id = $1 AND expires_at < now()', [token.api_key_id]);
    return issueTokens(tx, { keyId: token.api_key_id, orgId: token.org_id, clientId: client.id, resource: token.resource });
  });
}

/** Who an access token acts for: the owner of its grant's key record; undefined when unknown, expired or revoked. */
export async function findAccessTokenOwner(db: Queryable, tokenHash: Buffer): Promise<KeyOwner | undefined> {
  const result = await db.query<KeyOwner>(
    `SELECT ${KEY_OWNER_COLUMNS}
       FROM oauth_tokens t
       JOIN api_keys k ON k.id = t.api_key_id AND k.revoked_at IS NULL
       JOIN orgs o ON o.id = k.org_id
      WHERE t.token_hash = $1 AND t.kind = 'access' AND t.expires_at > now()`,
    [tokenHash],
  );
  return result.rows[0];
}

async function knownClient(db: Queryable, clientId: string): Promise<OAuthClient> {
  const client = await findClient(db, clientId);
  if (!client) throw invalidClient('client_id names no registered client; register again');
  return client;
}

/** RFC 8707 §2.2: a `resource` at the token endpoint must be the one the grant is for. */
function checkResource(requested: string | undefined, granted: string, urls: OAuthUrls): void {
  if (requested === undefined) return;
  if (!isOurResource(urls, requested) || !isOurResource(urls, granted)) {
    throw new OAuthError('invalid_target', `resource must be this server's MCP endpoint, ${urls.resource}`);
  }
}

async function issueTokens(tx: Queryable, grant: { keyId: number; orgId: number; clientId: number; resource: string }): Promise<TokenResponse> {
  const access = newAccessToken();
  const refresh = newRefreshToken();
  await tx.query(
    `INSERT INTO oauth_tokens (token_hash, org_id, api_key_id, client_id, kind, resource, expires_at)
     VALUES ($1, $3, $4, $5, 'access', $6, now() + make_interval(secs => $7)),
            ($2, $3, $4, $5, 'refresh', $6, now() + make_interval(secs => $8))`,
    [access.hash, refresh.hash, grant.orgId, grant.keyId, grant.clientId, grant.resource, ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS],
  );
  return { access_token: access.value, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh.value };
}

async function revokeGrantOfReusedCode(db: Queryable, codeHash: Buffer): Promise<void> {
  const used = await db.query<{ api_key_id: number | null }>('SELECT api_key_id FROM oauth_codes WHERE code_hash = $1', [codeHash]);
  const keyId = used.rows[0]?.api_key_id;
  if (keyId) await revokeApiKeyById(db, keyId);
}

/**
 * A refresh token presented again by its own client within seconds of its first use: requests that
 * a client sent side by side all met the expiry and all refresh with the one token it held (the MCP
 * SDK client does so). Answered like the first use (OAuth 2.0 Security BCP §4.14.2 allows this
 * leeway); a replay later than that is a theft and revokes the grant.
 */
async function reusedWithinGrace(db: Queryable, tokenHash: Buffer, client: OAuthClient): Promise<ClaimedRefresh | undefined> {
  const row = await db.query<ClaimedRefresh>(
    `SELECT t.api_key_id, t.org_id, t.client_id, t.resource, t.expires_at > now() AS live, k.revoked_at IS NULL AS granted
       FROM oauth_tokens t JOIN api_keys k ON k.id = t.api_key_id
      WHERE t.token_hash = $1 AND t.kind = 'refresh' AND t.client_id = $2 AND t.used_at > now() - make_interval(secs => $3)`,
    [tokenHash, client.id, REFRESH_REUSE_GRACE_SECONDS],
  );
  return row.rows[0];
}

async function revokeGrantOfReusedRefresh(db: Queryable, tokenHash: Buffer): Promise<void> {
  const used = await db.query<{ api_key_id: number }>("SELECT api_key_id FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh'", [tokenHash]);
  const keyId = used.rows[0]?.api_key_id;
  if (keyId) await revokeApiKeyById(db, keyId);
}
