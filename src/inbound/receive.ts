// A delivery a network POSTed to /inbound/<network>: whose accounts it concerns, whether the app those
// accounts were connected through signed it, and storing it (the worker processes it later). The
// answer is sent only after the commit, so a delivery acknowledged to the network is never lost.
import { createHash } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import { accountApp } from '../accounts/social-networks.ts';
import type { InboundRequest, NetworkCapabilities } from '../networks/capabilities.ts';
import type { ManagedApps } from '../config.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import { isStorableText } from '../validation/json-input.ts';

/** LISTEN/NOTIFY channel: "a delivery was stored", sent at its commit. */
export const INBOUND_CHANNEL = 'crier_inbound_deliveries';

export type ReceiveOutcome =
  | { kind: 'stored'; deliveryId: number; accountIds: number[] }
  /** No connected account is addressed: nothing can verify it, nothing would use it. */
  | { kind: 'ignored'; recipients: string[] }
  /** Unsigned, or signed with no secret of the addressed accounts' apps. */
  | { kind: 'bad_signature'; recipients: string[] };

interface Recipient {
  id: number;
  org_id: number;
  network: NetworkId;
  managed_app: boolean;
}

export async function receiveDelivery(
  db: Db, box: SecretBox, managedApps: ManagedApps, network: NetworkId, inbound: NonNullable<NetworkCapabilities['inbound']>, request: InboundRequest,
): Promise<ReceiveOutcome> {
  // An id PostgreSQL text cannot hold (a NUL, an unpaired surrogate) names no connected account: it is
  // left out of the lookup, which it would otherwise fail (a 500 to an unauthenticated caller).
  const recipients = inbound.recipients(request).filter(isStorableText);
  if (!recipients.length) return { kind: 'ignored', recipients };
  const { rows } = await db.query<Recipient>(
    'SELECT id, org_id, network, managed_app FROM social_accounts WHERE network = $1 AND network_unique_id = ANY($2::text[])',
    [network, recipients],
  );
  if (!rows.length) return { kind: 'ignored', recipients };
  const signedFor = await accountsSignedFor(db, box, managedApps, inbound, request, rows);
  if (!signedFor.length) return { kind: 'bad_signature', recipients };
  const deliveryId = await storeDelivery(db, network, signedFor, request);
  return { kind: 'stored', deliveryId, accountIds: signedFor };
}

/**
 * The accounts whose app's secret signed the delivery. An account of another org whose app did not
 * sign it gets none of its items, even when the delivery names it.
 */
async function accountsSignedFor(
  db: Db, box: SecretBox, managedApps: ManagedApps, inbound: NonNullable<NetworkCapabilities['inbound']>, request: InboundRequest, accounts: Recipient[],
): Promise<number[]> {
  const verdicts = new Map<string, boolean>();
  const signed: number[] = [];
  for (const account of accounts) {
    const app = await accountApp(db, box, account, managedApps);
    if (!app) continue;
    let valid = verdicts.get(app.clientSecret);
    if (valid === undefined) verdicts.set(app.clientSecret, valid = inbound.verify(request, app.clientSecret));
    if (valid) signed.push(account.id);
  }
  return signed;
}

/**
 * Stores the delivery once: the same body sent again to the same network (a redelivery, or a signed
 * delivery replayed) is the row already stored, acknowledged like the first time but neither stored
 * again nor announced to the worker (migrations/025_inbound_replay.sql).
 */
async function storeDelivery(db: Db, network: NetworkId, accountIds: number[], request: InboundRequest): Promise<number> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([, value]) => value !== undefined));
  const digest = createHash('sha256').update(request.rawBody).digest();
  const { rows } = await db.query<{ id: number }>(
    `WITH stored AS (
       INSERT INTO inbound_deliveries (network, account_ids, headers, query, body, body_sha256) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (network, body_sha256) DO NOTHING RETURNING id
     )
     SELECT id, pg_notify('${INBOUND_CHANNEL}', '') FROM stored`,
    [network, accountIds, JSON.stringify(headers), JSON.stringify(request.query), request.rawBody, digest],
  );
  if (rows[0]) return rows[0].id;
  const known = await db.query<{ id: number }>('SELECT id FROM inbound_deliveries WHERE network = $1 AND body_sha256 = $2', [network, digest]);
  // Gone in between (purged, KEEP_PROCESSED_DAYS after processing): stored anew.
  return known.rows[0]?.id ?? storeDelivery(db, network, accountIds, request);
}
