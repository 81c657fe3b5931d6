// A login that grants several accounts (facebook pages, instagram business accounts, linkedin
// organizations and the member, google business locations) waits here for the user to pick. The
// session token is the only credential of GET /v1/social-accounts/pending/:token and of finalize:
// only its SHA-256 is stored, it expires, and finalize consumes it (a second use is a 404).
import { createHash, randomBytes } from 'node:crypto';
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { RequestError, validationError } from '../core/errors.ts';
import type { ConnectCandidate } from '../networks/oauth.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import { pendingCandidatesData } from '../security/sealed-columns.ts';
import { getSocialAccount, upsertSocialAccount, type SocialAccountJson } from './social-accounts.ts';

export const PENDING_TTL_MINUTES = 15;
const MAX_SELECTED = 100;

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/**
 * A candidate the user may pick: with its tokens, or, in the session made beside a login that granted
 * one account (connected at once), the id of that account instead: finalizing it returns the account
 * and writes nothing, so a token refreshed meanwhile is never overwritten with the older one.
 */
interface StoredCandidate extends Omit<ConnectCandidate, 'tokens'> {
  tokens?: { accessToken: string; refreshToken?: string; expiresAt: string | null };
  accountId?: number;
}

export interface PendingView {
  network: NetworkId;
  expiresAt: string;
  availablePages: { id: string; type: string; name: string; username: string; profilePictureUrl: string | null }[];
}

interface PendingInput { orgId: number; network: NetworkId; tenantId: string | null; redirectUri: string | null; sandbox?: boolean; managedApp?: boolean; messaging?: boolean }

export async function createPendingConnection(db: Queryable, box: SecretBox, input: PendingInput & { candidates: ConnectCandidate[] }): Promise<{ session: string; expiresAt: Date }> {
  return storePending(db, box, input, input.candidates.map((c) => ({ ...c, tokens: { ...c.tokens, expiresAt: c.tokens.expiresAt?.toISOString() ?? null } })));
}

/**
 * The session a login that granted one account also gets, so a client that only reads `?session=`
 * (the hosted API's, whose logins always answer one) lists and "finalizes" it like a pick of one;
 * it holds the connected account's id, not its tokens.
 */
export async function createConnectedSession(db: Queryable, box: SecretBox, input: PendingInput & { accountId: number; candidate: ConnectCandidate }): Promise<{ session: string; expiresAt: Date }> {
  const { tokens: _sealedElsewhere, ...candidate } = input.candidate;
  return storePending(db, box, input, [{ ...candidate, accountId: input.accountId }]);
}

async function storePending(db: Queryable, box: SecretBox, input: PendingInput, stored: StoredCandidate[]): Promise<{ session: string; expiresAt: Date }> {
  const session = randomBytes(32).toString('base64url');
  // The id is the ciphertext's associated data, so it is taken before the row is written.
  const { rows: ids } = await db.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('pending_connections', 'id'))::bigint AS id`);
  const id = Number(ids[0]!.id);
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO pending_connections (id, token_hash, org_id, network, tenant_id, redirect_uri, sandbox, managed_app, messaging, candidates_enc, expires_at)
     OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(mins => $11))
     RETURNING expires_at`,
    [id, hashToken(session), input.orgId, input.network, input.tenantId, input.redirectUri, input.sandbox ?? false, input.managedApp ?? false, input.messaging ?? false, box.encrypt(JSON.stringify(stored), pendingCandidatesData(id)), PENDING_TTL_MINUTES],
  );
  return { session, expiresAt: rows[0]!.expires_at };
}

interface PendingRow {
  id: number;
  org_id: number;
  network: NetworkId;
  tenant_id: string | null;
  sandbox: boolean;
  managed_app: boolean;
  messaging: boolean;
  candidates_enc: Buffer;
  expires_at: Date;
  expired: boolean;
}

async function findPending(db: Queryable, token: string, lock: boolean): Promise<PendingRow> {
  const { rows } = await db.query<PendingRow>(
    `SELECT id, org_id, network, tenant_id, sandbox, managed_app, messaging, candidates_enc, expires_at, expires_at <= now() AS expired
       FROM pending_connections WHERE token_hash = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (!row) throw new RequestError(404, 'Unknown or already used connect session: start again from a new auth URL', { code: 'not_found' });
  if (row.expired) throw new RequestError(410, `The connect session expired (it is valid ${PENDING_TTL_MINUTES} minutes): start again from a new auth URL`, { code: 'session_expired' });
  return row;
}

const openCandidates = (box: SecretBox, row: PendingRow): StoredCandidate[] => JSON.parse(box.decrypt(row.candidates_enc, pendingCandidatesData(Number(row.id))));

/** GET /v1/social-accounts/pending/:token: what the login granted, without any token. */
export async function readPendingConnection(db: Queryable, box: SecretBox, token: string): Promise<PendingView> {
  const row = await findPending(db, token, false);
  return {
    network: row.network,
    expiresAt: row.expires_at.toISOString(),
    availablePages: openCandidates(box, row).map(({ id, type, name, username, profilePictureUrl }) => ({ id, type, name, username, profilePictureUrl })),
  };
}

/**
 * POST /v1/social-accounts/pending/:token/finalize {selectedPageIds}: connects the picks (an account
 * connected before is updated in place) and consumes the session, in one transaction. A request
 * with bad picks is refused without consuming it, so the user can pick again.
 */
export async function finalizePendingConnection(db: Db, box: SecretBox, token: string, body: { selectedPageIds?: unknown }): Promise<SocialAccountJson[]> {
  const selected = body.selectedPageIds;
  if (!Array.isArray(selected) || selected.length === 0 || selected.length > MAX_SELECTED || !selected.every((id) => typeof id === 'string' && id.length > 0)) {
    throw validationError([{ field: 'selectedPageIds', message: `must be a non-empty array (at most ${MAX_SELECTED}) of ids from availablePages` }]);
  }
  return withTransaction(db, async (tx) => {
    // The row lock orders two racing finalizes: the second finds the row gone.
    const row = await findPending(tx, token, true);
    const candidates = new Map(openCandidates(box, row).map((c) => [c.id, c]));
    const unknown = (selected as string[]).map((id, i) => ({ id, i })).filter(({ id }) => !candidates.has(id));
    if (unknown.length) throw validationError(unknown.map(({ id, i }) => ({ field: `selectedPageIds[${i}]`, message: `"${id}" is not one of availablePages` })));
    const accounts: SocialAccountJson[] = [];
    for (const id of new Set(selected as string[])) {
      const c = candidates.get(id)!;
      if (c.accountId !== undefined) {
        accounts.push(await alreadyConnected(tx, row, c.accountId));
        continue;
      }
      const tokens = c.tokens!;
      const accountId = await upsertSocialAccount(tx, box, {
        orgId: row.org_id,
        network: row.network,
        username: c.username,
        nickname: c.name,
        networkUniqueId: c.id,
        accountType: c.type,
        tenantId: row.tenant_id,
        profilePictureUrl: c.profilePictureUrl,
        sandbox: row.sandbox,
        managedApp: row.managed_app,
        messaging: row.messaging,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
      });
      accounts.push((await getSocialAccount(tx, row.org_id, accountId))!);
    }
    await tx.query('DELETE FROM pending_connections WHERE id = $1', [row.id]);
    return accounts;
  });
}

/** The account a one-account login connected at once, unless it was removed since. */
async function alreadyConnected(tx: Queryable, row: PendingRow, accountId: number): Promise<SocialAccountJson> {
  const account = await getSocialAccount(tx, row.org_id, accountId);
  if (!account) throw new RequestError(409, 'The account this connect made was removed since: start again from a new auth URL', { code: 'account_removed' });
  return account;
}

/** Maintenance: expired sessions (and their sealed tokens) are dropped. */
export async function purgeExpiredPendingConnections(db: Queryable): Promise<void> {
  await db.query('DELETE FROM pending_connections WHERE expires_at < now()');
}
