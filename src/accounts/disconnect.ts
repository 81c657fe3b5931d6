// An account whose token no longer works is disconnected: one statement and one event, whoever finds out.
import type { Queryable } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import { emitEvent } from '../webhooks/outbox.ts';

/**
 * The token no longer works: the account becomes inactive, keeping why and when (shown on the account
 * until it is connected again), and, once, account.token_expired is emitted.
 * Called by the publishing engine when a network refuses the token, and by the token refresher
 * when a refresh token is refused.
 */
export async function markAccountDisconnected(tx: Queryable, orgId: number, account: { id: number; network: string; username: string }, error: string): Promise<void> {
  const { rowCount } = await tx.query(
    'UPDATE social_accounts SET is_active = false, disconnected_reason = $2, disconnected_at = now() WHERE id = $1 AND is_active',
    [account.id, error],
  );
  if (rowCount) {
    await emitEvent(tx, orgId, 'account.token_expired', {
      orgId: encodeId(orgId),
      accountId: account.id,
      network: account.network,
      username: account.username,
      error,
    });
  }
}
