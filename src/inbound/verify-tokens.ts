// The verify token a network's console asks for with the callback URL (Meta's "Verify token"), which
// it sends back in the subscription handshake. One per app that signs deliveries: each registered app
// of an organization has its own (social_networks.inbound_verify_token, shown on the app's record);
// the operator's managed app has one derived from its secret, so it needs no configuration of its own.
import { createHmac } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import type { ManagedApps } from '../config.ts';
import type { NetworkId } from '../core/network-id.ts';

/** The path a network's webhooks are sent to, below PUBLIC_BASE_URL. */
export const inboundPath = (network: NetworkId) => `/inbound/${network}`;

/**
 * The managed app's token: hex HMAC-SHA256 of "crier-inbound-verify-token:<network>" keyed with the
 * app's client secret (README: how to compute it). Undefined when the operator has no app of the network.
 */
export function managedVerifyToken(managedApps: ManagedApps, network: NetworkId): string | undefined {
  const app = managedApps[network];
  return app && createHmac('sha256', app.clientSecret).update(`crier-inbound-verify-token:${network}`).digest('hex');
}

/** Is `token` one Crier issued for the network (an org's registered app, or the managed app)? */
export async function isIssuedVerifyToken(db: Queryable, managedApps: ManagedApps, network: NetworkId, token: string): Promise<boolean> {
  if (!token) return false;
  if (token === managedVerifyToken(managedApps, network)) return true;
  const { rows } = await db.query('SELECT 1 FROM social_networks WHERE network = $1 AND inbound_verify_token = $2 LIMIT 1', [network, token]);
  return rows.length > 0;
}

/** What an org pastes into the network's console for its registered app; undefined for a network without inbound. */
export interface InboundSetup {
  callback_url: string;
  verify_token: string;
}

export async function inboundSetupOf(db: Queryable, publicBaseUrl: string, appId: number, network: NetworkId, hasInbound: boolean): Promise<InboundSetup | null> {
  if (!hasInbound) return null;
  const { rows } = await db.query<{ inbound_verify_token: string }>('SELECT inbound_verify_token FROM social_networks WHERE id = $1', [appId]);
  if (!rows[0]) return null;
  return { callback_url: `${publicBaseUrl}${inboundPath(network)}`, verify_token: rows[0].inbound_verify_token };
}
