// A delivery a network POSTed to /inbound/<network>: whose accounts it concerns, whether the app those
// accounts were connected through signed it, and storing it (the worker processes it later). The
// answer is sent only after the commit, so a delivery acknowledged to the network is never lost.
import type { Db } from '../db/pool.ts';
import { accountApp } from '../accounts/social-networks.ts';
import type { InboundRequest, NetworkCapabilities } from '../networks/capabilities.ts';
import type { ManagedApps, NetworkId } from '../networks/types.ts';
import type { SecretBox } from '../security/crypto.ts';

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
  const recipients = inbound.recipients(request);
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

async function storeDelivery(db: Db, network: NetworkId, accountIds: number[], request: InboundRequest): Promise<number> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([, value]) => value !== undefined));
  const { rows } = await db.query<{ id: number }>(
    `WITH stored AS (
       INSERT INTO inbound_deliveries (network, account_ids, headers, query, body) VALUES ($1, $2, $3, $4, $5) RETURNING id
     )
     SELECT id, pg_notify('${INBOUND_CHANNEL}', '') FROM stored`,
    [network, accountIds, JSON.stringify(headers), JSON.stringify(request.query), request.rawBody],
  );
  return rows[0]!.id;
}
