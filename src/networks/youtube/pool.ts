// The managed-key daily pool (spec rule 7). Accounts connected through the operator's app share its
// Google Cloud project's quota, counted per Pacific day (it resets at midnight America/Los_Angeles).
// Google's quota table (determine_quota_cost, since the 2026-06-01 revision) has two buckets: the
// project's videos.insert calls (100 a day, 1 each) and 10,000 units for every other call
// (thumbnails.set 50, commentThreads.insert 50, videos.list 1…). Crier keeps its own ledger of both
// (network_ledger, pool `uploads`: an upload's call is an entry `insert:account:<id>` of 1, units are
// entries `account:<id>`) and admits an upload when it is about to create the upload session — at
// execution time, never at scheduling — under the pool's lock shared by every worker, against each
// bucket:
//  - the whole day's budget (daily_limit_reached), and the organization's share (org_limit_reached);
//  - pacing: what is released so far is a burst plus the budget × the elapsed fraction of the day,
//    so one morning's burst of posts cannot starve the rest of the day (release_pending, with the
//    time enough is released as retryAt);
//  - Google said a bucket is spent (quotaExceeded): an entry filling it for the day marks it, and
//    every upload until the reset is denied (provider_quota_exhausted).
// An admitted upload is charged its call and the units known then (its thumbnail, its comments);
// processing polls and engagement calls are charged as they happen. Nothing is refunded on failure.
import { PublishError } from '../../core/errors.ts';
import type { LedgerSpend, NetworkLedger } from '../../core/ledger.ts';
import type { PoolSettings } from './settings.ts';

export const POOL = 'uploads';

/** Google's two daily buckets: videos.insert calls, and the units of every other call. */
export type Bucket = 'uploads' | 'units';

/** What an upload's videos.insert call is recorded as, ahead of the account's subject. */
const INSERT = 'insert:';
/** The subject of the entry that marks a bucket spent for the day (Google said so). */
const EXHAUSTED: Record<Bucket, string> = { uploads: 'google:uploads_exhausted', units: 'google:quota_exhausted' };

export type PoolDenial = 'release_pending' | 'org_limit_reached' | 'daily_limit_reached' | 'provider_quota_exhausted' | 'quota_unavailable';

/** One bucket as it stands: uploads counted in calls, the rest in units. */
interface BucketFigures {
  budget: number;
  used: number;
  orgUsed: number;
  orgShare: number;
  released: number;
  exhausted: boolean;
}

/** GET /v1/usage's `networks.youtube.pool` (less `pacing`). */
export interface PoolFigures {
  budgetUploads: number;
  usedUploads: number;
  orgUsedUploads: number;
  orgShareUploads: number;
  releasedUploads: number;
  budgetUnits: number;
  usedUnits: number;
  orgUsedUnits: number;
  orgShareUnits: number;
  releasedUnits: number;
  /** The next midnight in America/Los_Angeles. */
  resetsAt: string;
  /** Google said one of the buckets is spent for the day. */
  exhausted: boolean;
}

/**
 * Admits one upload for the account — its videos.insert call and `units` of the units bucket (its
 * thumbnail and comments) — recording both; throws the denial otherwise.
 */
export async function admitUpload(ledger: NetworkLedger, settings: PoolSettings, account: { id: number; orgId: number }, units: number): Promise<void> {
  let denial: PublishError | undefined;
  try {
    await ledger.withPool(POOL, async (pool) => {
      const spends = await pool.spent(pacificDay(pool.now).start);
      denial = deniedBy(settings, pool.now, spends, account.orgId, units);
      if (denial) return;
      await pool.record({ subject: `${INSERT}${subjectOf(account.id)}`, orgId: account.orgId, units: 1 });
      if (units > 0) await pool.record({ subject: subjectOf(account.id), orgId: account.orgId, units });
    });
  } catch (error) {
    throw denied('quota_unavailable', `the shared YouTube quota could not be checked (${(error as Error).message}); try again`);
  }
  if (denial) throw denial;
}

/** Charges units already spent (a processing poll, an engagement call). Never denies: the call is made. */
export async function chargeSpent(ledger: NetworkLedger, account: { id: number; orgId: number }, units: number): Promise<void> {
  if (units <= 0) return;
  await ledger.withPool(POOL, (pool) => pool.record({ subject: subjectOf(account.id), orgId: account.orgId, units }));
}

/**
 * Google refused a call for the project's quota: the bucket it draws on (`uploads` for videos.insert,
 * `units` for any other call) is marked spent for the rest of the Pacific day; when it resets.
 */
export async function markExhausted(ledger: NetworkLedger, settings: PoolSettings, orgId: number, bucket: Bucket): Promise<string> {
  let resetsAt = '';
  await ledger.withPool(POOL, async (pool) => {
    const day = pacificDay(pool.now);
    resetsAt = day.end.toISOString();
    const figures = bucketFigures(settings, bucket, pool.now, await pool.spent(day.start), orgId);
    if (!figures.exhausted) await pool.record({ subject: EXHAUSTED[bucket], orgId, units: Math.max(0, figures.budget - figures.used) });
  });
  return resetsAt;
}

/** GET /v1/usage's `networks.youtube`. */
export async function poolUsage(settings: PoolSettings, ledger: NetworkLedger, orgId: number): Promise<Record<string, unknown>> {
  const figures = await ledger.read(POOL, async (pool) => figuresOf(settings, pool.now, await pool.spent(pacificDay(pool.now).start), orgId));
  return { pool: { ...figures, pacing: settings.pacing } };
}

function figuresOf(settings: PoolSettings, now: Date, spends: LedgerSpend[], orgId: number): PoolFigures {
  const uploads = bucketFigures(settings, 'uploads', now, spends, orgId);
  const units = bucketFigures(settings, 'units', now, spends, orgId);
  return {
    budgetUploads: uploads.budget,
    usedUploads: uploads.used,
    orgUsedUploads: uploads.orgUsed,
    orgShareUploads: uploads.orgShare,
    releasedUploads: uploads.released,
    budgetUnits: units.budget,
    usedUnits: units.used,
    orgUsedUnits: units.orgUsed,
    orgShareUnits: units.orgShare,
    releasedUnits: units.released,
    resetsAt: pacificDay(now).end.toISOString(),
    exhausted: uploads.exhausted || units.exhausted,
  };
}

/** Which bucket an entry counts in, by its subject. */
function bucketOfSubject(subject: string): Bucket {
  return subject.startsWith(INSERT) || subject === EXHAUSTED.uploads ? 'uploads' : 'units';
}

function bucketFigures(settings: PoolSettings, bucket: Bucket, now: Date, spends: LedgerSpend[], orgId: number): BucketFigures {
  const [budget, burst] = bucket === 'uploads' ? [settings.budgetUploads, settings.burstUploads] : [settings.budgetUnits, settings.burstUnits];
  const mine = spends.filter((s) => bucketOfSubject(s.subject) === bucket);
  const day = pacificDay(now);
  const elapsed = (now.getTime() - day.start.getTime()) / (day.end.getTime() - day.start.getTime());
  return {
    budget,
    used: mine.reduce((sum, s) => sum + s.units, 0),
    orgUsed: mine.filter((s) => s.orgId === orgId && s.subject !== EXHAUSTED[bucket]).reduce((sum, s) => sum + s.units, 0),
    orgShare: Math.floor((budget * settings.orgSharePercent) / 100),
    released: settings.pacing ? Math.min(budget, Math.floor(burst + budget * elapsed)) : budget,
    exhausted: mine.some((s) => s.subject === EXHAUSTED[bucket]),
  };
}

function deniedBy(settings: PoolSettings, now: Date, spends: LedgerSpend[], orgId: number, units: number): PublishError | undefined {
  const resetsAt = pacificDay(now).end.toISOString();
  const uploads = bucketFigures(settings, 'uploads', now, spends, orgId);
  const unitFigures = bucketFigures(settings, 'units', now, spends, orgId);
  if (uploads.exhausted) return denied('provider_quota_exhausted', `Google says the app's YouTube upload quota (videos.insert calls) is spent for today`, resetsAt);
  if (unitFigures.exhausted) return denied('provider_quota_exhausted', `Google says the app's YouTube quota is spent for today`, resetsAt);
  const asked: [Bucket, BucketFigures, number][] = [['uploads', uploads, 1], ['units', unitFigures, units]];
  for (const [bucket, f, need] of asked) {
    const left = `${Math.max(0, f.budget - f.used)} of ${f.budget} ${bucket}`;
    if (need > 0 && f.used + need > f.budget) return denied('daily_limit_reached', `the shared YouTube quota has ${left} left today and this upload needs ${need}`, resetsAt);
  }
  for (const [bucket, f, need] of asked) {
    if (need > 0 && f.orgUsed + need > f.orgShare) {
      return denied('org_limit_reached', `this organization used ${f.orgUsed} of its ${f.orgShare} daily YouTube ${bucket} and this upload needs ${need}`, resetsAt);
    }
  }
  for (const [bucket, f, need] of asked) {
    if (need > 0 && f.used + need > f.released) {
      const burst = bucket === 'uploads' ? settings.burstUploads : settings.burstUnits;
      return denied('release_pending', `the shared YouTube quota is released through the day; ${f.released} of ${f.budget} ${bucket} are released so far and ${f.used} are spent`, releaseTime(now, f, need, burst));
    }
  }
  return undefined;
}

/** When enough of a paced bucket will be released for `need` more. */
function releaseTime(now: Date, f: BucketFigures, need: number, burst: number): string {
  const day = pacificDay(now);
  const fraction = (f.used + need - burst) / f.budget;
  return new Date(day.start.getTime() + Math.ceil(fraction * (day.end.getTime() - day.start.getTime()))).toISOString();
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
