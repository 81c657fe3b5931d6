// "next-free-slot": the earliest slot at which every targeted account's queue has a slot, no live
// post of any of them already stands, and no account's publishing quota would be exceeded. What is
// read from the database (queues, held slots, quota use) is a SlotBook; choosing from it is pure, and
// a batch of creates takes its slots from one book, each marking its slot taken for the next.
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { encodeId } from '../core/ids.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { AccountQuota } from '../networks/contract.ts';
import { slotInstants } from './slots.ts';
import { heldSlots, queuesOfAccounts, quotaUses, type QueueRow, type QuotaUse } from './store.ts';
import type { Queryable } from '../db/pool.ts';

/** The literal `scheduledAt` that asks for the next free slot. */
export const NEXT_FREE_SLOT = 'next-free-slot';

/** A week past the scheduling window is read too, so a refusal can say when the next free slot is. */
const BEYOND_WINDOW_MS = 7 * 86_400_000;

export type AccountQuotas = Partial<Record<NetworkId, AccountQuota>>;

export interface SlotAccount {
  id: number;
  network: NetworkId;
  username: string;
}

export interface SlotRules {
  now: Date;
  /** How far ahead a post may be scheduled (the spec's 30 days). */
  horizonMs: number;
  quotas: AccountQuotas;
}

/** What the database says of some accounts' slots, from now to a week past the window. */
export interface SlotBook {
  queues: Map<number, QueueRow>;
  /** Per account, the instants (ms) its live posts hold. */
  held: Map<number, Set<number>>;
  /** Per account, what it publishes in the quota windows that reach into the range. */
  uses: Map<number, QuotaUse[]>;
}

export async function readSlotBook(db: Queryable, orgId: number, accountIds: number[], rules: SlotRules): Promise<SlotBook> {
  const until = new Date(rules.now.getTime() + rules.horizonMs + BEYOND_WINDOW_MS);
  const longestWindow = Math.max(0, ...Object.values(rules.quotas).map((q) => q!.windowMs));
  // One after another: `db` is often a transaction's one connection (the create path holds the slot
  // lock there), which runs a statement at a time; queued at once, pg warns and will refuse (pg 9).
  const queues = await queuesOfAccounts(db, orgId, accountIds);
  const held = await heldSlots(db, orgId, accountIds, rules.now, until);
  const uses = await quotaUses(db, orgId, accountIds, new Date(rules.now.getTime() - longestWindow), until);
  const book: SlotBook = { queues: new Map(queues.map((q) => [q.account_id, q])), held: new Map(), uses: new Map() };
  for (const slot of held) setOf(book.held, slot.accountId).add(slot.at.getTime());
  for (const use of uses) listOf(book.uses, use.accountId).push(use);
  return book;
}

export type SlotChoice = { ok: true; at: Date } | { ok: false; error: RequestError };

/**
 * The slot a post of `containers` containers to `accounts` (in the post's order) would take. Refused
 * (400, with the reason): an account without a queue, queues that share no slot time, a free slot
 * only beyond the scheduling window.
 */
export function chooseSlot(book: SlotBook, accounts: readonly SlotAccount[], containers: number, rules: SlotRules): SlotChoice {
  const missing: FieldIssue[] = accounts.flatMap((account, i) => (book.queues.has(account.id) ? [] : [{
    field: `socialAccounts[${i}]`,
    message: `${account.network} account ${account.username} (${encodeId(account.id)}) has no queue: create one with POST /v1/queues, or send a date-time as scheduledAt`,
  }]));
  if (missing.length) return { ok: false, error: new RequestError(400, 'An account of this post has no queue, so "next-free-slot" has no slot to take', { code: 'account_without_queue', details: missing }) };

  const windowEnd = rules.now.getTime() + rules.horizonMs;
  let skippedForQuota = 0;
  for (const at of commonSlots(book, accounts, rules)) {
    if (accounts.some((account) => book.held.get(account.id)?.has(at))) continue;
    if (!accounts.every((account) => withinQuota(book, account, at, containers, rules.quotas))) {
      skippedForQuota += 1;
      continue;
    }
    if (at <= windowEnd) return { ok: true, at: new Date(at) };
    return refusal(`the next free slot, ${new Date(at).toISOString()}, is more than 30 days ahead, beyond the scheduling window`);
  }
  const quotaNote = skippedForQuota ? ` (${skippedForQuota} free slot${skippedForQuota === 1 ? ' was' : 's were'} passed over because the account's publishing quota for that window is used up)` : '';
  return refusal(accounts.length > 1
    ? `no slot common to the queues of these accounts is free within the 30-day scheduling window${quotaNote}`
    : `no slot of the account's queue is free within the 30-day scheduling window${quotaNote}`);
}

/** Marks a chosen slot taken (and its quota used) for the rest of a batch. */
export function takeSlot(book: SlotBook, accounts: readonly SlotAccount[], at: Date, containers: number): void {
  for (const account of accounts) {
    setOf(book.held, account.id).add(at.getTime());
    listOf(book.uses, account.id).push({ accountId: account.id, at, containers });
  }
}

/** The instants (ms) at which every account's queue has a slot, ascending, to a week past the window. */
function commonSlots(book: SlotBook, accounts: readonly SlotAccount[], rules: SlotRules): number[] {
  const until = new Date(rules.now.getTime() + rules.horizonMs + BEYOND_WINDOW_MS);
  const perAccount = accounts.map((account) => {
    const queue = book.queues.get(account.id)!;
    return slotInstants(queue.time_zone, queue.slots, rules.now, until).map((d) => d.getTime());
  });
  const [first, ...others] = perAccount;
  const otherSets = others.map((list) => new Set(list));
  return [...new Set(first)].filter((at) => otherSets.every((set) => set.has(at)));
}

/**
 * Whether one more post at `at` keeps the account within its quota: what it publishes in the window
 * ending at `at`, plus this post, is at most the quota (the engine's admission asks the same when the
 * post is due, and would hold it back otherwise).
 */
function withinQuota(book: SlotBook, account: SlotAccount, at: number, containers: number, quotas: AccountQuotas): boolean {
  const quota = quotas[account.network];
  if (!quota) return true;
  const unitsOf = (n: number) => (quota.counts === 'containers' ? n : 1);
  const used = (book.uses.get(account.id) ?? [])
    .filter((use) => use.at.getTime() > at - quota.windowMs && use.at.getTime() <= at)
    .reduce((sum, use) => sum + unitsOf(use.containers), 0);
  return used + unitsOf(containers) <= quota.max;
}

function refusal(reason: string): SlotChoice {
  return { ok: false, error: validationError([{ field: 'scheduledAt', message: `"next-free-slot": ${reason}` }], 'No free queue slot within the scheduling window') };
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function listOf<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
