// The managed-key daily pool (spec rule 7). Accounts connected through the operator's app share its
// Google Cloud project's quota, counted per Pacific day (it resets at midnight America/Los_Angeles).
// Crier keeps its own ledger of what it spent (network_ledger, pool `uploads`) and admits an upload
// when it is about to create the upload session — at execution time, never at scheduling — under
// the pool's lock shared by every worker:
//  - the whole day's budget (daily_limit_reached), and the organization's share (org_limit_reached);
//  - pacing: what is released so far is a burst plus the budget × the elapsed fraction of the day,
//    so one morning's burst of posts cannot starve the rest of the day (release_pending, with the
//    time enough is released as retryAt);
//  - Google said the project's quota is spent (quotaExceeded): an entry filling the day marks it,
//    and every upload until the reset is denied (provider_quota_exhausted).
// An admitted upload is charged what it will cost that is known then (the insert, its thumbnail,
// its comments); processing polls are charged as they happen. Nothing is refunded on failure.
import { PublishError } from '../errors.ts';
import type { LedgerSpend, NetworkLedger } from '../types.ts';
import type { PoolSettings } from './settings.ts';

export const POOL = 'uploads';
/** The subject of the entry that marks the project's quota spent for the day. */
const EXHAUSTED = 'google:quota_exhausted';

export type PoolDenial = 'release_pending' | 'org_limit_reached' | 'daily_limit_reached' | 'provider_quota_exhausted' | 'quota_unavailable';

export interface PoolFigures {
  budgetUnits: number;
  usedUnits: number;
  orgUsedUnits: number;
  orgShareUnits: number;
  releasedUnits: number;
  /** The next midnight in America/Los_Angeles. */
  resetsAt: string;
  exhausted: boolean;
}

/** Admits one upload of `units` for the account, recording it; throws the denial otherwise. */
export async function admitUpload(ledger: NetworkLedger, settings: PoolSettings, account: { id: number; orgId: number }, units: number): Promise<void> {
  let denial: PublishError | undefined;
  try {
    await ledger.withPool(POOL, async (pool) => {
      const figures = figuresOf(settings, pool.now, await pool.spent(pacificDay(pool.now).start), account.orgId);
      denial = deniedBy(settings, figures, pool.now, units);
      if (!denial) await pool.record({ subject: subjectOf(account.id), orgId: account.orgId, units });
    });
  } catch (error) {
    throw denied('quota_unavailable', `the shared YouTube quota could not be checked (${(error as Error).message}); try again`);
  }
  if (denial) throw denial;
}

/** Charges units already spent (a processing poll). Never denies: the call is made. */
export async function chargeSpent(ledger: NetworkLedger, account: { id: number; orgId: number }, units: number): Promise<void> {
  if (units <= 0) return;
  await ledger.withPool(POOL, (pool) => pool.record({ subject: subjectOf(account.id), orgId: account.orgId, units }));
}

/** Google refused a call for the project's quota: the rest of the Pacific day is marked spent. */
export async function markExhausted(ledger: NetworkLedger, settings: PoolSettings, orgId: number): Promise<string> {
  let resetsAt = '';
  await ledger.withPool(POOL, async (pool) => {
    const figures = figuresOf(settings, pool.now, await pool.spent(pacificDay(pool.now).start), orgId);
    resetsAt = figures.resetsAt;
    if (!figures.exhausted) await pool.record({ subject: EXHAUSTED, orgId, units: Math.max(0, settings.budgetUnits - figures.usedUnits) });
  });
  return resetsAt;
}

/** GET /v1/usage's `networks.youtube`. */
export async function poolUsage(settings: PoolSettings, ledger: NetworkLedger, orgId: number): Promise<Record<string, unknown>> {
  const figures = await ledger.read(POOL, async (pool) => figuresOf(settings, pool.now, await pool.spent(pacificDay(pool.now).start), orgId));
  return { pool: { ...figures, pacing: settings.pacing } };
}

function figuresOf(settings: PoolSettings, now: Date, spends: LedgerSpend[], orgId: number): PoolFigures {
  const day = pacificDay(now);
  const usedUnits = spends.reduce((sum, s) => sum + s.units, 0);
  const orgUsedUnits = spends.filter((s) => s.orgId === orgId && s.subject !== EXHAUSTED).reduce((sum, s) => sum + s.units, 0);
  const elapsed = (now.getTime() - day.start.getTime()) / (day.end.getTime() - day.start.getTime());
  const released = settings.pacing ? Math.min(settings.budgetUnits, Math.floor(settings.burstUnits + settings.budgetUnits * elapsed)) : settings.budgetUnits;
  return {
    budgetUnits: settings.budgetUnits,
    usedUnits,
    orgUsedUnits,
    orgShareUnits: Math.floor((settings.budgetUnits * settings.orgSharePercent) / 100),
    releasedUnits: released,
    resetsAt: day.end.toISOString(),
    exhausted: spends.some((s) => s.subject === EXHAUSTED),
  };
}

function deniedBy(settings: PoolSettings, f: PoolFigures, now: Date, units: number): PublishError | undefined {
  const left = `${Math.max(0, f.budgetUnits - f.usedUnits)} of ${f.budgetUnits} units`;
  if (f.exhausted) return denied('provider_quota_exhausted', `Google says the app's YouTube quota is spent for today`, f.resetsAt);
  if (f.usedUnits + units > f.budgetUnits) return denied('daily_limit_reached', `the shared YouTube quota has ${left} left today and this upload needs ${units}`, f.resetsAt);
  if (f.orgUsedUnits + units > f.orgShareUnits) {
    return denied('org_limit_reached', `this organization used ${f.orgUsedUnits} of its ${f.orgShareUnits} daily YouTube units and this upload needs ${units}`, f.resetsAt);
  }
  if (f.usedUnits + units > f.releasedUnits) {
    const day = pacificDay(now);
    const fraction = (f.usedUnits + units - settings.burstUnits) / settings.budgetUnits;
    const at = new Date(day.start.getTime() + Math.ceil(fraction * (day.end.getTime() - day.start.getTime())));
    return denied('release_pending', `the shared YouTube quota is released through the day; ${f.releasedUnits} of ${f.budgetUnits} units are released so far and ${f.usedUnits} are spent`, at.toISOString());
  }
  return undefined;
}

export function denied(code: PoolDenial, why: string, retryAt?: string): PublishError {
  return new PublishError('permanent', `youtube: ${code}: ${why}${retryAt ? `; retryAt=${retryAt}` : ''}`, undefined, 'quota');
}

const subjectOf = (accountId: number) => `account:${accountId}`;

const TIME_ZONE = 'America/Los_Angeles';
/**
 * Made on first use, not at import: a formatter with a time zone loads ICU's zone and calendar data
 * (~5 MB of resident memory measured), which a process that never admits a YouTube upload should not carry.
 */
let wallClock: Intl.DateTimeFormat | undefined;

function wallParts(ms: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  wallClock ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  const parts = Object.fromEntries(wallClock.formatToParts(ms).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far Los Angeles' wall clock is ahead of UTC at `ms` (negative: behind). */
function offsetAt(ms: number): number {
  const w = wallParts(ms);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant midnight began in Los Angeles on the day containing `ms`. */
function midnightOf(ms: number): number {
  const w = wallParts(ms);
  const wallMidnight = Date.UTC(w.year, w.month - 1, w.day);
  // The offset at midnight may differ from the one at `ms` (a DST change that day): settle it twice.
  const guess = wallMidnight - offsetAt(ms);
  return wallMidnight - offsetAt(guess);
}

/** The Pacific day containing `now`: YouTube's quota day (23, 24 or 25 hours long). */
export function pacificDay(now: Date): { start: Date; end: Date } {
  const start = midnightOf(now.getTime());
  // 26 hours on is always within the next day, whatever today's length.
  return { start: new Date(start), end: new Date(midnightOf(start + 26 * 3600_000)) };
}
