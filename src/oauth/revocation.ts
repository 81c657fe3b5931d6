// Token revocation (RFC 7009): how a client signs out. Revoking a refresh token ends the whole grant
// (§2.1: the server SHOULD also invalidate the grant's access tokens), by revoking the grant's key
// record as the keys page does. Revoking an access token ends that token alone; the grant and its
// refresh token stay. A token Crier does not know (an expired and removed one, an API key, random
// text) is answered like a revoked one (§2.2): the client's goal, a token that no longer works, is
// met either way.
import type { Queryable } from '../db/pool.ts';
import { revokeApiKeyById } from '../orgs/api-keys.ts';
import { findClient } from './clients.ts';
import { invalidClient, invalidGrant } from './errors.ts';
import { hashSecret } from './tokens.ts';

interface StoredToken {
  kind: 'access' | 'refresh';
  client_id: number;
  api_key_id: number;
}

export async function revokeToken(db: Queryable, clientId: string, token: string): Promise<void> {
  // A public client authenticates by its client_id alone; an unknown one is told so, as at the token endpoint.
  const client = await findClient(db, clientId);
  if (!client) throw invalidClient('client_id names no registered client');
  const hash = hashSecret(token);
  const found = await db.query<StoredToken>('SELECT kind, client_id, api_key_id FROM oauth_tokens WHERE token_hash = $1', [hash]);
  const stored = found.rows[0];
  if (!stored) return;
  // §2.1: the token must have been issued to the client that revokes it.
  if (stored.client_id !== client.id) throw invalidGrant('The token was issued to another client');
  if (stored.kind === 'refresh') await revokeApiKeyById(db, stored.api_key_id);
  else await db.query("DELETE FROM oauth_tokens WHERE token_hash = $1 AND kind = 'access'", [hash]);
}
