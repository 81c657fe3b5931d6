// POST /v1/posts/bulk?dry_run=true: a verdict per row, each the single dry run's (dry-run.ts
// dryRunCreate over the create's parseCreateBody): the same 400 a create would answer becomes the
// row's `details`, and each destination says whether its network could publish the post. What costs a
// statement per row in the single dry run is done once for the whole file: the accounts of every row
// are resolved in one statement, the media Crier holds are looked up in one, and the queues of the
// rows asking for "next-free-slot" are read once, each such row taking, in row order, the slot the rows
// before it left (as the import, creating them in that order, would give them). Only a network with a
// `preview` (TikTok's creator info) is asked per row and account, as the single dry run asks it.
import { RequestError, type FieldIssue } from '../core/errors.ts';
import type { Queryable } from '../db/pool.ts';
import { chooseSlot, readSlotBook, takeSlot, type AccountQuotas, type SlotRules } from '../queues/next-slot.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { resolveAccounts, type ResolvedAccount } from './accounts.ts';
import type { BulkRow } from './bulk-rows.ts';
import { accountProblem, asksNextFreeSlot } from './create.ts';
import { dryRunCreate, type DryRunDestination, type KnownMedia, type RemotePreview } from './dry-run.ts';
import { parseCreateBody, SCHEDULE_HORIZON_MS, type Parsed } from './validate.ts';

export interface BulkVerdict {
  row: number;
  /** The create would store the row's post, and every destination could publish it. */
  ok: boolean;
  /** The create would store the row's post (false: `error`, `code` and `details` say why not, as its 400 would). */
  accepted: boolean;
  error?: string;
  code?: string;
  details?: FieldIssue[];
  warnings?: string[];
  /** The slot "next-free-slot" resolves to now, after the rows before it took theirs. */
  scheduledAt?: string;
  destinations?: DryRunDestination[];
}

export interface BulkJudgeDeps {
  db: Queryable;
  orgId: number;
  now: Date;
  fetch: FetchPolicy;
  quotas: AccountQuotas;
  /** The media Crier holds among these URLs (the single dry run's lookup, made once for the file). */
  knownMedia(urls: string[]): Promise<Map<string, KnownMedia>>;
  remote: RemotePreview;
}

/** Rows judged at once: only a network's preview makes one wait. */
const CONCURRENCY = 16;

export async function judgeBulkRows(deps: BulkJudgeDeps, rows: BulkRow[]): Promise<BulkVerdict[]> {
  const parsed: Parsed[] = rows.map((row) => ('body' in row ? parseCreateBody(row.body, deps.now, deps.fetch) : { ok: false, details: row.problem }));
  const accounts = await resolveRows(deps, parsed);
  const media = await deps.knownMedia([...new Set(parsed.flatMap((p) => (p.ok ? p.request.containers.flatMap((c) => c.media.map((m) => m.url)) : [])))]);
  const slots = await previewSlots(deps, rows, parsed, accounts);
  const verdicts: BulkVerdict[] = new Array(rows.length);
  let next = 0;
  const judgeNext = async (): Promise<void> => {
    for (let i = next++; i < rows.length; i = next++) verdicts[i] = await judgeRow(rows[i]!.row, parsed[i]!, accounts[i]!, media, deps.remote, slots.get(i));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, judgeNext));
  return verdicts;
}

/** Every valid row's accounts, in one statement (an invalid row gets none: it is refused before they matter). */
async function resolveRows(deps: BulkJudgeDeps, parsed: Parsed[]): Promise<ResolvedAccount[][]> {
  const valid = parsed.flatMap((p, i) => (p.ok ? [{ i, entries: p.request.accounts }] : []));
  const resolved = valid.length ? await resolveAccounts(deps.db, valid.map((v) => ({ orgId: deps.orgId, entries: v.entries }))) : [];
  const accounts: ResolvedAccount[][] = parsed.map(() => []);
  valid.forEach((v, n) => (accounts[v.i] = resolved[n]!));
  return accounts;
}

/** Each "next-free-slot" row the create would accept: its slot, or the create's refusal, from one read of the queues. */
async function previewSlots(deps: BulkJudgeDeps, rows: BulkRow[], parsed: Parsed[], accounts: ResolvedAccount[][]): Promise<Map<number, Date | RequestError>> {
  const asking = rows.flatMap((row, i) => {
    const p = parsed[i]!;
    return 'body' in row && asksNextFreeSlot(row.body) && p.ok && !accountProblem(p.request, accounts[i]!) ? [{ i, containers: p.request.containers.length }] : [];
  });
  const slots = new Map<number, Date | RequestError>();
  if (asking.length === 0) return slots;
  const rules: SlotRules = { now: deps.now, horizonMs: SCHEDULE_HORIZON_MS, quotas: deps.quotas };
  const book = await readSlotBook(deps.db, deps.orgId, [...new Set(asking.flatMap(({ i }) => accounts[i]!.map((a) => a.id)))], rules);
  for (const { i, containers } of asking) {
    const choice = chooseSlot(book, accounts[i]!, containers, rules);
    if (!choice.ok) {
      slots.set(i, choice.error);
      continue;
    }
    takeSlot(book, accounts[i]!, choice.at, containers);
    slots.set(i, choice.at);
  }
  return slots;
}

async function judgeRow(row: number, parsed: Parsed, accounts: ResolvedAccount[], media: Map<string, KnownMedia>, remote: RemotePreview, slot: Date | RequestError | undefined): Promise<BulkVerdict> {
  const nextFreeSlot = slot === undefined ? undefined : async () => {
    if (slot instanceof RequestError) throw slot;
    return slot;
  };
  try {
    const body = await dryRunCreate(parsed, async () => accounts, async () => media, remote, nextFreeSlot);
    const verdict: BulkVerdict = { row, ok: body.destinations.every((d) => d.ok), accepted: true, destinations: body.destinations };
    if (body.warnings) verdict.warnings = body.warnings;
    if (body.scheduledAt) verdict.scheduledAt = body.scheduledAt;
    return verdict;
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    return { row, ok: false, accepted: false, error: error.message, ...(error.code ? { code: error.code } : {}), ...(error.details ? { details: error.details } : {}) };
  }
}
