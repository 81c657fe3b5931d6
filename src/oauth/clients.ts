// Dynamic client registration (RFC 7591): any MCP client may register itself, before anyone signs
// in, as a public client (no secret: a desktop or browser client could not keep one). Registration
// grants nothing: a client gets tokens only after a signed-in user approves it, and the consent page
// shows its redirect host next to its self-chosen name, which proves nothing by itself.
//
// Anyone may register, so registrations are limited per client address (routes/oauth-register.ts),
// and a client that never obtained a grant is removed a day after it registered
// (removeUnusedClients).
import type { Queryable } from '../db/pool.ts';
import { OAuthError } from './errors.ts';
import { redirectUriProblem, returnAddress } from './redirect-uris.ts';
import { newClientId } from './tokens.ts';

const MAX_REDIRECT_URIS = 10;
const MAX_NAME_LENGTH = 100;
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
/** How long a registered client may go without obtaining a grant before it is removed. */
export const UNUSED_CLIENT_HOURS = 24;

export interface OAuthClient {
  id: number;
  clientId: string;
  name: string;
  redirectUris: string[];
}

/** RFC 7591 §3.2.1: what the client is registered as. */
export interface ClientInformation {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
}

const metadataError = (description: string) => new OAuthError('invalid_client_metadata', description);

/** Registers a client from its metadata (the request's JSON body); throws OAuthError for metadata Crier cannot honour. */
export async function registerClient(db: Queryable, metadata: unknown): Promise<ClientInformation> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw metadataError('The body must be a JSON object of client metadata');
  const fields = metadata as Record<string, unknown>;
  const redirectUris = checkRedirectUris(fields.redirect_uris);
  checkPublicClient(fields);
  const name = clientName(fields.client_name, redirectUris[0]!);
  await removeUnusedClients(db);
  const clientId = newClientId();
  const row = await db.query<{ created_at: Date }>(
    'INSERT INTO oauth_clients (client_id, client_name, redirect_uris) VALUES ($1, $2, $3) RETURNING created_at',
    [clientId, name, redirectUris],
  );
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(row.rows[0]!.created_at.getTime() / 1000),
    client_name: name,
    redirect_uris: redirectUris,
    grant_types: [...GRANT_TYPES],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

export async function findClient(db: Queryable, clientId: string): Promise<OAuthClient | undefined> {
  if (clientId.length > 200) return undefined;
  const row = await db.query<{ id: number; client_name: string; redirect_uris: string[] }>(
    'SELECT id, client_name, redirect_uris FROM oauth_clients WHERE client_id = $1',
    [clientId],
  );
  const found = row.rows[0];
  return found && { id: found.id, clientId, name: found.client_name, redirectUris: found.redirect_uris };
}

/**
 * Removes the clients registered more than UNUSED_CLIENT_HOURS ago that hold no grant: no token, and
 * no code still to exchange. Run as each client registers: registering is the only way the table
 * grows, so it holds at most a day of registrations (limited per address) plus the clients in use,
 * with no timer of its own. A removed client that comes back is told its client_id is unknown
 * (invalid_client at the token endpoint) and registers again, as the MCP SDK's client does by itself.
 * Its tokens and codes go with it (ON DELETE CASCADE); a client with a token is never removed here.
 */
export async function removeUnusedClients(db: Queryable): Promise<number> {
  const removed = await db.query(
    `DELETE FROM oauth_clients c
      WHERE c.created_at < now() - make_interval(hours => $1)
        AND NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.client_id = c.id)
        AND NOT EXISTS (SELECT 1 FROM oauth_codes o WHERE o.client_id = c.id AND (o.api_key_id IS NOT NULL OR o.expires_at > now()))`,
    [UNUSED_CLIENT_HOURS],
  );
  return removed.rowCount ?? 0;
}

function checkRedirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URLs');
  if (value.length > MAX_REDIRECT_URIS) throw new OAuthError('invalid_redirect_uri', `redirect_uris may list at most ${MAX_REDIRECT_URIS} URLs`);
  return value.map((uri, i) => {
    if (typeof uri !== 'string') throw new OAuthError('invalid_redirect_uri', `redirect_uris[${i}] must be a string`);
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris[${i}] ${problem}`);
    return uri;
  });
}

/** Only what Crier does: public clients, the code grant (with refresh), the code response type. */
function checkPublicClient(fields: Record<string, unknown>): void {
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw metadataError('token_endpoint_auth_method must be "none": Crier registers public clients only (PKCE protects the code, no client secret is issued)');
  }
  const grants = fields.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => typeof g !== 'string' || !GRANT_TYPES.has(g)))) {
    throw metadataError('grant_types may list only "authorization_code" and "refresh_token"');
  }
  const responses = fields.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== 'code'))) {
    throw metadataError('response_types may list only "code"');
  }
}

/** The name people will see on the consent page and the keys page; without one, where the browser returns to says who it is. */
function clientName(value: unknown, firstRedirectUri: string): string {
  if (value === undefined) return `MCP client at ${returnAddress(firstRedirectUri).address}`;
  if (typeof value !== 'string') throw metadataError('client_name must be a string');
  // Control characters (line breaks included) are dropped: the name is shown in one line, never as markup.
  const name = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name) return `MCP client at ${returnAddress(firstRedirectUri).address}`;
  if (name.length > MAX_NAME_LENGTH) throw metadataError(`client_name must be at most ${MAX_NAME_LENGTH} characters`);
  return name;
}
