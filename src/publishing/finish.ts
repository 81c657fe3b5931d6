// Recording how attempts ended, many in one statement, and — for each post whose last open target
// this finished — emitting the post's one event (post.published or post.error) in that statement's
// transaction. The work is the SQL function publishing_record_outcomes (migrations 010, 015, 017); the events
// it builds go to the outbox in the same statement.
import { markAccountDisconnected } from '../accounts/disconnect.ts';
import { prepared, withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import { emitEvent, outboxCtes } from '../webhooks/outbox.ts';
import type { Claim } from './claim.ts';
import type { ConfirmedPart } from './parts.ts';

export type Outcome =
  /** `note`: published, but not quite as asked (PartRef.note), kept as the destination's error text. */
  | { status: 'published'; platformPostId: string; platformPostUrl: string; note?: string }
  | { status: 'failed' | 'unknown'; error: string; deactivateAccount?: boolean }
  /**
   * Due again after `delayMs`, as a new attempt (a retryable error). `refused`: the network refused
   * a call and certainly did not carry it out (a 429, a spent quota): counted in the target's
   * refusals. `release`: the container whose call it was, sent again without reconciling.
   */
  | { status: 'retry'; error: string; delayMs: number; refused?: boolean; release?: number }
  /** A network's waiting step: due again after `delayMs`, resuming from `checkpoint`. */
  | { status: 'wait'; checkpoint: Record<string, unknown> | null; delayMs: number };

export interface FinishedAttempt {
  claim: Claim;
  outcome: Outcome;
  /** The last container the network accepted, not yet on record: written with the outcome. */
  confirm?: ConfirmedPart;
}

const TARGET_STATUS = { published: 'published', failed: 'failed', unknown: 'unknown', retry: 'pending', wait: 'pending' } as const;
const ATTEMPT_OUTCOME = { published: 'published', failed: 'failed', unknown: 'unknown', retry: 'retry', wait: 'waiting' } as const;

const RECORD_OUTCOMES = prepared(`WITH outcome AS (
     SELECT * FROM publishing_record_outcomes($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
   ), ${outboxCtes('outcome')}
   SELECT (SELECT coalesce(array_agg(attempt_id), '{}') FROM outcome WHERE attempt_id IS NOT NULL) AS recorded,
          (SELECT count(*) FROM woken) AS woken`);

/**
 * Applies each outcome whose claim is still its target's current attempt; returns, per item, false
 * when a newer attempt took over (then it records nothing but the container it published). An
 * account whose token the network refused for good is disconnected in the same transaction.
 */
export async function recordOutcomes(db: Db, items: FinishedAttempt[]): Promise<boolean[]> {
  const disconnecting = items.filter((i) => 'deactivateAccount' in i.outcome && i.outcome.deactivateAccount);
  if (disconnecting.length === 0) return writeOutcomes(db, items);
  return withTransaction(db, async (tx) => {
    const recorded = await writeOutcomes(tx, items);
    for (const { claim, outcome } of disconnecting) {
      if (recorded[items.findIndex((i) => i.claim === claim)] && 'error' in outcome) {
        await markAccountDisconnected(tx, claim.orgId, claim.account, outcome.error);
      }
    }
    return recorded;
  });
}

async function writeOutcomes(db: Queryable, items: FinishedAttempt[]): Promise<boolean[]> {
  // Same row order in every batch: two batches touching the same targets cannot deadlock.
  const rows = [...items].sort((a, b) => a.claim.targetId - b.claim.targetId);
  const column = <T>(pick: (i: FinishedAttempt) => T) => rows.map(pick);
  const { rows: result } = await db.query<{ recorded: string[] }>({ ...RECORD_OUTCOMES, values: [
    column((i) => i.claim.targetId),
    column((i) => i.claim.attemptId),
    column((i) => i.claim.orgId),
    column((i) => i.claim.postId),
    column((i) => TARGET_STATUS[i.outcome.status]),
    column((i) => ATTEMPT_OUTCOME[i.outcome.status]),
    column((i) => ('error' in i.outcome ? i.outcome.error : i.outcome.status === 'published' ? i.outcome.note ?? null : null)),
    column((i) => (i.outcome.status === 'published' ? i.outcome.platformPostId : null)),
    column((i) => (i.outcome.status === 'published' ? i.outcome.platformPostUrl : null)),
    column((i) => ('delayMs' in i.outcome ? i.outcome.delayMs : null)),
    column((i) => (i.outcome.status === 'wait' && i.outcome.checkpoint ? JSON.stringify(i.outcome.checkpoint) : null)),
    column((i) => i.confirm?.position ?? null),
    column((i) => i.confirm?.ref.platformId ?? null),
    column((i) => i.confirm?.ref.url ?? null),
    column((i) => (i.confirm?.ref.ref ? JSON.stringify(i.confirm.ref.ref) : null)),
    column((i) => (i.outcome.status === 'retry' ? i.outcome.release ?? null : null)),
    column((i) => i.outcome.status === 'retry' && i.outcome.refused === true),
    JSON.stringify(publicIds(items)),
  ] });
  const recorded = new Set(result[0]!.recorded.map(Number));
  return items.map((i) => recorded.has(i.claim.attemptId));
}

/** The encoded ids a completion event of these posts may name: the posts, their orgs, all their accounts. */
function publicIds(items: FinishedAttempt[]): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const { claim } of items) {
    ids[`p${claim.postId}`] ??= encodeId(claim.postId);
    ids[`o${claim.orgId}`] ??= encodedOnce(claim.orgId);
    for (const account of claim.postAccountIds) ids[`a${account}`] ??= encodedOnce(account);
  }
  return ids;
}

/** Orgs and accounts come back post after post: their encodings are kept (a bounded memo). */
const encoded = new Map<number, string>();
function encodedOnce(id: number): string {
  let value = encoded.get(id);
  if (value === undefined) {
    if (encoded.size >= 10_000) encoded.clear();
    value = encodeId(id);
    encoded.set(id, value);
  }
  return value;
}
