// POST /v1/posts. Concurrent creates share transactions (db/group-commit.ts): a batch claims its
// Idempotency-Keys, resolves its accounts and inserts its posts with their containers, media and
// targets, each step one statement for the whole batch, and each request gets its own answer (a bad
// request is a 4xx for that request alone). A request from the API has its accounts resolved before
// it joins a batch (accounts.ts, batched too), while the batch before it is being written; a batch
// about to start waits a few milliseconds for the requests resolving theirs (AWAIT_RESOLVING_MS). A
// request with a key is judged on its accounts only once its key is claimed: a replay does not
// depend on them, and a 409 or 422 comes before any 400 of the body. The
// targets are the publishing queue: they are written due (at scheduledAt, or now), so a stored post
// is always queued — there is no separate job that could fail to be queued after the post was
// stored. Drafts are written with nothing due, and so are posts waiting for approval.
//
// `"scheduledAt": "next-free-slot"` (queues/next-slot.ts): a batch holding such a request opens its
// transaction, takes each targeted account's slot lock (store.ts lockAccountSlots: a transaction-level
// advisory lock, released by the commit that stores the posts), reads the accounts' queues and held
// slots, and gives its requests their slots in arrival order, each taking the one the previous left.
// Any other batch or process taking a slot of these accounts waits for the commit, then sees the posts.
//
// Approval (orgs/settings.ts `requireApproval`, read with the request's key, and a tenant's, read with
// the accounts: no statement more per batch): a non-draft post of an organization that requires
// approval, or targeting an account of a tenant that does, is written
// `pending_approval` with nothing due, and its `post.approval_requested` event goes to the outbox in
// the batch's transaction (opened for them), so an event exists exactly when its post does. A post is
// judged by the setting as it was when its request was authenticated.
import { type Db, type Queryable, type Tx, prepared } from '../db/pool.ts';
import { groupCommit, type BatchSession, type Settled } from '../db/group-commit.ts';
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import {
  KeyCommittedMeanwhile, allStored, claimBatch, claimError, claimIdempotencyKeys, claimsCte, fingerprintOf, isKeyCommittedMeanwhile, storedCte,
  type ClaimBatch, type ClaimRow, type KeyClaim, type StoredResponse,
} from '../idempotency/keys.ts';
import { resolveAccounts, type ResolvedAccount } from './accounts.ts';
import { needsApproval } from '../orgs/settings.ts';
import { toPostJson, type PostJson } from './serialize.ts';
import { encodeId } from '../core/ids.ts';
import { emitEvents, type NewEvent } from '../webhooks/outbox.ts';
import { checkTargets, SCHEDULE_HORIZON_MS, type CreateRequest, type Parsed } from './validate.ts';
import { NETWORKS } from '../networks/ids.ts';
import { networkFor } from '../networks/registry.ts';
import { lockAccountSlots } from '../queues/store.ts';
import { NEXT_FREE_SLOT, chooseSlot, readSlotBook, takeSlot, type AccountQuotas, type SlotRules } from '../queues/next-slot.ts';

const ENDPOINT = 'POST /v1/posts';

export interface CreateSubmission {
  orgId: number;
  /** The Idempotency-Key, validated. */
  key: string | undefined;
  /** The body as sent (its fingerprint is what a key's replay is checked against). */
  body: unknown;
  /** The body parsed and validated on its own; with a key, a failure is reported after the key is checked. */
  parsed: Parsed;
  now: Date;
  /** Resolved already (a request without a key: resolving is not part of its transaction). */
  accounts?: ResolvedAccount[];
  /** The organization holds posts for approval, as read with the request's key (KeyOwner). */
  requireApproval?: boolean;
}

export interface CreateOutcome extends StoredResponse {
  replayed: boolean;
  /** When the targets are due (null: now); undefined when nothing was queued. Wake the workers. */
  dueAt: Date | null | undefined;
}

export interface CreatedBody {
  success: true;
  warnings?: string[];
  post: PostJson;
  /** The same post, where hosted clients read it (`data.post`). */
  data: { post: PostJson };
}

/**
 * One batch of at most 100 creates in flight at a time (and one of requests with a key). Measured
 * with `npm run bench -- --only creates` (20 clients, back to back): 1 slot 2,036–2,342 creates/s (batches of ~10), 2 slots
 * 1,470–1,751, 4 slots 1,447–1,661, 8 slots 1,139, 20 slots 628 — concurrent batches of the same
 * organization's posts slow each other's statements down (3 posts took 4–7 ms beside three other
 * batches, 10 posts 3.8 ms alone). Again after the plan fixes of migration 014, on a quieter machine:
 * 1 slot 3,103–3,475/s, 2 slots 2,479, 3 slots 2,144. Requests with a key, 2026-11-30 on 2 cores: 1
 * slot 1,964/s, 2 slots 1,959 (storing the responses and the commit took 40–70% longer beside the
 * other batch).
 */
export function createPostWriter(db: Db, quotas: AccountQuotas = NETWORK_QUOTAS): {
  submit(submission: CreateSubmission): Promise<CreateOutcome>;
  /** A create (with this key, or none) is resolving its accounts: the next batch of its kind waits for it (AWAIT_RESOLVING_MS). */
  expect(key: string | undefined): () => void;
} {
  // Requests with a key in batches of their own: a batch of requests without one stays a single
  // statement, with no transaction to open, whatever else arrives.
  const write = (session: BatchSession, submissions: CreateSubmission[]) => writeCreates(session, submissions, quotas);
  const plain = groupCommit(db, write, { slots: 1, maxBatch: 100, awaitExpectedMs: AWAIT_RESOLVING_MS });
  const keyed = groupCommit(db, write, { slots: 1, maxBatch: 100, awaitExpectedMs: AWAIT_RESOLVING_MS });
  const queueOf = (key: string | undefined) => (key === undefined ? plain : keyed);
  return { submit: (submission) => queueOf(submission.key).submit(submission), expect: (key) => queueOf(key).expect() };
}

/**
 * How long a batch of creates without a key waits, at most, for the requests already resolving their
 * accounts when it is about to start (the route announces each: expect()). A batch is one statement
 * and one commit whatever it holds (~640 µs of PostgreSQL plus ~115 per post, bench:batches), and as
 * processes are added each one's batches shrink (bench:scale prints posts per write transaction).
 * Measured with `bench:scale` on 2 cores, the whole bench twice each way, alternated (2026-11-30; the
 * second pair's figures, the first's agreeing): at 1 API + 1 worker, posts per write transaction
 * 3.8-3.9 -> 5.1-5.3, creates 1,120-1,217 -> 1,409-1,677/s, CPU per post 1,103-1,237 -> 804-984 µs,
 * create p99 43-47 -> 28-31 ms; at 2 + 2 and 4 + 4 likewise (docs/benchmarks.md).
 */
const AWAIT_RESOLVING_MS = 5;

/** The networks' own per-account quotas (their `limits.accountQuota`), which a queue slot respects. */
const NETWORK_QUOTAS: AccountQuotas = Object.fromEntries(NETWORKS.flatMap((id) => {
  const quota = networkFor(id).limits.accountQuota;
  return quota ? [[id, quota]] : [];
}));

/** Whether the body asks for the next free queue slot (its schema has accepted the literal). */
export function asksNextFreeSlot(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { scheduledAt?: unknown }).scheduledAt === NEXT_FREE_SLOT;
}

/**
 * One batch: an outcome or an error per submission. Its posts are written by one statement, which is
 * its own transaction unless a post takes a queue slot (the slots' locks) or waits for approval (its
 * event): then the batch opens one.
 *
 * Idempotency-Keys are claimed by that same statement, which writes only the posts whose key it
 * claimed and stores their responses with them (spec rule 6): their responses are made first, from
 * ids reserved for them (reserveIds). A key held by a concurrent request is a 409, a stored response
 * is replayed (or a 422 for another body), whatever the body holds; a claimed key gets its request's
 * own answer, the 400 of its body or accounts included. Queue slots are given before the keys are
 * claimed: a request whose key turns out held or stored writes nothing, but a later request of the
 * same batch on the same account may take the slot after the one it would have taken.
 */
export async function writeCreates(session: BatchSession, submissions: CreateSubmission[], quotas: AccountQuotas = NETWORK_QUOTAS): Promise<Settled<CreateOutcome>[]> {
  const tx = session.client;
  const verdicts = await judge(tx, submissions);
  const slotted = verdicts.flatMap((v) => (isPost(v) && asksNextFreeSlot(submissions[v.index]!.body) ? [v] : []));
  if (slotted.length) {
    await session.begin();
    for (const [index, error] of await assignSlots(tx, slotted, submissions, quotas)) verdicts[index] = error;
  }
  const posts = verdicts.filter(isPost);
  for (const post of posts) post.pending = !post.request.isDraft && needsApproval(submissions[post.index]!.requireApproval === true, post.accounts);
  // Posts and their events are written together: the batch's transaction is opened for them.
  if (!slotted.length && posts.some((post) => post.pending)) await session.begin();

  const keyed = submissions.flatMap((s, index) => (s.key === undefined ? [] : [{ index, request: { orgId: s.orgId, key: s.key, fingerprint: fingerprintOf(s.body) } }]));
  const claims = keyed.length ? claimBatch(keyed.map((k) => k.request)) : undefined;
  let written: WrittenPosts;
  try {
    written = await insertPosts(tx, posts, submissions, claims && { batch: claims, keyOf: new Map(keyed.map((k, i) => [k.index, i])) });
  } catch (error) {
    if (!isKeyCommittedMeanwhile(error)) throw error;
    // Nothing was written. In a batch, each request goes again alone (group commit); alone, the
    // request reads the response committed meanwhile, as its retry would, and replays it. In an open
    // transaction (aborted now) it is a 409.
    if (submissions.length > 1) throw error;
    if (session.open) throw new KeyCommittedMeanwhile();
    const [claim] = await claimIdempotencyKeys(tx, ENDPOINT, [keyed[0]!.request]);
    return [claim!.kind === 'stored' ? claimAnswer(claim!) : { ok: false, error: new KeyCommittedMeanwhile() }];
  }
  await emitEvents(tx, posts.flatMap((post) => (post.pending && written.stored.has(post.index) ? [approvalRequested(post, written.stored.get(post.index)!.postId)] : [])));

  const claimOf = new Map(keyed.map((k, i) => [k.index, written.claims[i]!]));
  return submissions.map((submission, index): Settled<CreateOutcome> => {
    const claim = claimOf.get(index);
    if (claim && claim.kind !== 'claimed') return claimAnswer(claim);
    const verdict = verdicts[index]!;
    if (!isPost(verdict)) return { ok: false, error: verdict };
    return { ok: true, value: written.outcomes.get(index)! };
  });
}

/** A request's answer when its key was not claimed: 409 while held, the stored response replayed, or 422 for another body. */
function claimAnswer(claim: Exclude<KeyClaim, { kind: 'claimed' }>): Settled<CreateOutcome> {
  const error = claimError(claim);
  if (error) return { ok: false, error };
  return { ok: true, value: { ...(claim as Extract<KeyClaim, { kind: 'stored' }>).response, replayed: true, dueAt: undefined } };
}

/** Each request's post to write, or its 400 (rules 1-3, the platform rules, the body's own). */
async function judge(tx: Queryable, submissions: CreateSubmission[]): Promise<(NewPost | RequestError)[]> {
  const unresolved = submissions.flatMap((s, index) => (s.parsed.ok && !s.accounts ? [{ index, orgId: s.orgId, entries: s.parsed.request.accounts }] : []));
  const resolved = unresolved.length ? await resolveAccounts(tx, unresolved) : [];
  const resolvedHere = new Map(unresolved.map(({ index }, i) => [index, resolved[i]!]));
  return submissions.map((submission, index) => {
    if (!submission.parsed.ok) return validationError(submission.parsed.details);
    const { request } = submission.parsed;
    const accounts = submission.accounts ?? resolvedHere.get(index)!;
    return accountProblem(request, accounts) ?? { index, orgId: submission.orgId, request, accounts };
  });
}

function isPost(verdict: NewPost | RequestError): verdict is NewPost {
  return !(verdict instanceof RequestError);
}

/**
 * Gives each post asking for "next-free-slot" its slot (its request's scheduledAt), in batch order,
 * under the slot locks of all their accounts (taken in one statement, in id order); the posts that
 * get none come back with the reason, by submission index.
 */
async function assignSlots(tx: Tx, posts: NewPost[], submissions: CreateSubmission[], quotas: AccountQuotas): Promise<Map<number, RequestError>> {
  const refused = new Map<number, RequestError>();
  if (posts.length === 0) return refused;
  await lockAccountSlots(tx, posts.flatMap((post) => post.accounts.map((a) => a.id)));
  for (const orgId of new Set(posts.map((post) => post.orgId))) {
    const ofOrg = posts.filter((post) => post.orgId === orgId);
    const earliest = new Date(Math.min(...ofOrg.map((post) => submissions[post.index]!.now.getTime())));
    const book = await readSlotBook(tx, orgId, [...new Set(ofOrg.flatMap((post) => post.accounts.map((a) => a.id)))], slotRules(earliest, quotas));
    for (const post of ofOrg) {
      const containers = post.request.containers.length;
      const choice = chooseSlot(book, post.accounts, containers, slotRules(submissions[post.index]!.now, quotas));
      if (!choice.ok) {
        refused.set(post.index, choice.error);
        continue;
      }
      takeSlot(book, post.accounts, choice.at, containers);
      post.request = { ...post.request, scheduledAt: choice.at };
    }
  }
  return refused;
}

function approvalRequested(post: NewPost, postId: number): NewEvent {
  return {
    orgId: post.orgId,
    type: 'post.approval_requested',
    data: {
      postId: encodeId(postId),
      orgId: encodeId(post.orgId),
      scheduledAt: post.request.scheduledAt?.toISOString() ?? null,
      socialAccounts: post.accounts.map((a) => ({ accountId: encodeId(a.id), network: a.network, username: a.username })),
    },
  };
}

function slotRules(now: Date, quotas: AccountQuotas): SlotRules {
  return { now, horizonMs: SCHEDULE_HORIZON_MS, quotas };
}

/**
 * The dry run's "next-free-slot": the slot a create would take now, read without the lock and
 * without taking it (a create arriving meanwhile may take it first); a RequestError when there is none.
 */
export async function previewNextFreeSlot(db: Queryable, orgId: number, request: CreateRequest, accounts: ResolvedAccount[], now: Date, quotas: AccountQuotas = NETWORK_QUOTAS): Promise<Date> {
  const rules = slotRules(now, quotas);
  const book = await readSlotBook(db, orgId, [...new Set(accounts.map((a) => a.id))], rules);
  const choice = chooseSlot(book, accounts, request.containers.length, rules);
  if (!choice.ok) throw choice.error;
  return choice.at;
}

/** Rules 1-3, the platform rules and the static refusals (checkTargets) of the resolved accounts: the request's 400, or undefined. */
export function accountProblem(request: CreateRequest, accounts: ResolvedAccount[]): RequestError | undefined {
  if (accounts.length === 0) {
    return new RequestError(400, 'No account in "accounts" matches a connected social account', {
      code: 'no_account_resolved',
      details: [{ field: 'accounts', message: 'no entry matches an account id or exact username of this organization' }],
    });
  }
  const issues: FieldIssue[] = checkTargets(request, accounts);
  return issues.length ? validationError(issues) : undefined;
}

interface NewPost {
  index: number;
  orgId: number;
  request: CreateRequest;
  accounts: ResolvedAccount[];
  /** Waits for approval: its destinations `pending_approval`, nothing due. */
  pending?: boolean;
}

interface StoredPost {
  postId: number;
  createdAt: Date;
  containers: { id: number; content: string; media: { id: number; url: string; filename: string; altText: string | null }[] }[];
}

function createdOutcome(post: NewPost, stored: StoredPost, now: Date): CreateOutcome {
  const { request, accounts } = post;
  const queued = !request.isDraft && !post.pending;
  const json = toPostJson({
    id: stored.postId,
    org_id: post.orgId,
    published_at: null,
    scheduled_at: request.scheduledAt,
    is_draft: request.isDraft,
    created_at: stored.createdAt,
    network_options: Object.keys(request.blocks).length ? request.blocks : null,
    process_media: request.processMedia,
    queued,
    approval: post.pending ? 'pending' : null,
    accounts: accounts.map((a) => ({ ...a })),
    containers: stored.containers,
  });
  const body: CreatedBody = { success: true, post: json, data: { post: json } };
  const warnings = post.pending ? [...request.warnings, PENDING_WARNING] : request.warnings;
  if (warnings.length) body.warnings = warnings;
  const dueAt = !queued ? undefined : request.scheduledAt && request.scheduledAt > now ? request.scheduledAt : null;
  return { status: 200, body, headers: {}, replayed: false, dueAt };
}

const PENDING_WARNING = 'The organization requires approval: the post waits, pending_approval, until a key with the approver or admin role approves it (POST /v1/posts/:id/approve); nothing is queued before that';

/** What a batch's write did: each written post's stored form and outcome, by submission index; the key claims, in order. */
interface WrittenPosts {
  stored: Map<number, StoredPost>;
  outcomes: Map<number, CreateOutcome>;
  claims: KeyClaim[];
}

/** The batch's Idempotency-Keys, claimed by the write itself (idempotency/keys.ts claimsCte). */
interface WriteKeys {
  batch: ClaimBatch;
  /** Submission index -> the request's place in the claim batch. */
  keyOf: Map<number, number>;
}

/** The ids of a batch's rows, in order: [post id, created_at], [post id, container id], [container id, media id]. */
interface RowIds {
  posts: [number, string][];
  containers: [number, number][];
  media: [number, number][];
}

/**
 * One statement writes every post of the batch with its containers, media and targets. Post ids
 * are taken from the posts' sequence first, so each child row knows its post without a join on
 * content. A queued post's targets are due at scheduledAt, or now (a past scheduledAt publishes now).
 *
 * With keys, the same statement claims them first and writes only the posts whose key it claimed,
 * with their responses (storedCte). Those responses are made before the statement, from ids and a
 * created_at reserved for the posts (reserveIds), which the statement writes.
 */
async function insertPosts(tx: Tx, posts: NewPost[], submissions: CreateSubmission[], keys: WriteKeys | undefined): Promise<WrittenPosts> {
  if (!keys && posts.length === 0) return { stored: new Map(), outcomes: new Map(), claims: [] };
  const claimOrd = (post: NewPost) => {
    const at = keys?.keyOf.get(post.index);
    return at === undefined ? undefined : keys!.batch.ords[at]!;
  };
  // A key repeated in the batch is busy (claimBatch): its post is not written.
  const toWrite = posts.filter((post) => claimOrd(post) !== null);
  const reserved = keys && toWrite.length ? await reserveIds(tx, toWrite) : undefined;
  const made = new Map<number, { stored: StoredPost; outcome: CreateOutcome }>();
  if (reserved) {
    storedPosts(toWrite, reserved).forEach((stored, i) => {
      const post = toWrite[i]!;
      made.set(post.index, { stored, outcome: createdOutcome(post, stored, submissions[post.index]!.now) });
    });
  }
  const input = toWrite.map((post, i) => {
    const { index, orgId, request, accounts, pending } = post;
    const { stored: ids, outcome } = made.get(index) ?? {};
    const claim = claimOrd(post);
    return {
      id: ids?.postId ?? null,
      created_at: reserved ? reserved.posts[i]![1] : null,
      org_id: orgId,
      is_draft: request.isDraft,
      scheduled_at: request.scheduledAt,
      network_options: Object.keys(request.blocks).length ? request.blocks : null,
      process_media: request.processMedia,
      queued: !request.isDraft && !pending,
      approval: pending ? 'pending' : null,
      containers: request.containers.map((c, position) => ({ id: ids?.containers[position]!.id ?? null, position, content: c.content })),
      media: request.containers.flatMap((c, container) =>
        c.media.map((m, position) => ({ id: ids?.containers[container]!.media[position]!.id ?? null, container, position, url: m.url, filename: m.filename, alt: m.altText ?? null })),
      ),
      accounts: accounts.map((a) => a.id),
      ...(claim === undefined ? {} : {
        claim,
        key: submissions[index]!.key,
        fingerprint: keys!.batch.values[2][claim - 1]!.toString('hex'),
        status: outcome!.status,
        response: outcome!.body,
        headers: outcome!.headers,
      }),
    };
  });
  const { rows: [row] } = await tx.query<Partial<RowIds> & { claims: ClaimRow[] | null }>({
    ...prepared(insertPostsSql(keys !== undefined)),
    values: keys ? [JSON.stringify(input), ENDPOINT, ...keys.batch.values] : [JSON.stringify(input)],
  });
  const written: RowIds = { posts: row!.posts ?? [], containers: row!.containers ?? [], media: row!.media ?? [] };
  const claims = keys ? keys.batch.read(row!.claims ?? []) : [];
  const writtenPosts = toWrite.filter((post) => claimOrd(post) === undefined || claims[keys!.keyOf.get(post.index)!]!.kind === 'claimed');
  if (written.posts.length !== writtenPosts.length) throw new Error(`insertPosts: ${written.posts.length} posts written for ${writtenPosts.length}`);
  const result: WrittenPosts = { stored: new Map(), outcomes: new Map(), claims };
  const stored = reserved ? writtenPosts.map((post) => made.get(post.index)!.stored) : storedPosts(writtenPosts, written);
  writtenPosts.forEach((post, i) => {
    if (written.posts[i]![0] !== stored[i]!.postId) throw new Error(`insertPosts: post ${written.posts[i]![0]} written for ${stored[i]!.postId}`);
    result.stored.set(post.index, stored[i]!);
    result.outcomes.set(post.index, made.get(post.index)?.outcome ?? createdOutcome(post, stored[i]!, submissions[post.index]!.now));
  });
  return result;
}

/**
 * The statement of insertPosts. $1: the posts (JSON); with keys, $2 the endpoint and $3-$5 the claim
 * batch (claimsCte). A post with a `claim` is written only when its key was claimed, and its response
 * stored; the statement fails (isKeyCommittedMeanwhile) rather than store over a response committed
 * meanwhile. The ids come back as three JSON arrays, the contents are the request's own: returning
 * each post's containers as JSON built by correlated subqueries over the CTEs made the statement 10
 * times slower.
 */
function insertPostsSql(keyed: boolean): string {
  return `WITH ${keyed ? `${claimsCte('$2', '$3', '$4', '$5')},` : ''} x AS MATERIALIZED (
       SELECT j.ord, coalesce(x.id, nextval(pg_get_serial_sequence('posts', 'id'))) AS id, coalesce(x.created_at, now()) AS created_at,
              x.org_id, x.is_draft, x.scheduled_at, x.network_options, x.process_media, x.queued, x.approval, x.containers, x.media, x.accounts,
              x.claim, x.key, x.fingerprint, x.status, x.response, x.headers
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS j(post, ord),
              jsonb_to_record(j.post) AS x(id bigint, created_at timestamptz, org_id bigint, is_draft boolean, scheduled_at timestamptz, network_options jsonb,
                                           process_media boolean, queued boolean, approval text, containers jsonb, media jsonb, accounts jsonb,
                                           claim bigint, key text, fingerprint text, status int, response jsonb, headers jsonb)
        ${keyed ? 'WHERE x.claim IS NULL OR EXISTS (SELECT 1 FROM claims k WHERE k.ord = x.claim AND k.ok AND NOT k.stored)' : ''}
     ), p AS (
       INSERT INTO posts (id, created_at, org_id, is_draft, scheduled_at, network_options, process_media, queued, approval) OVERRIDING SYSTEM VALUE
       SELECT id, created_at, org_id, is_draft, scheduled_at, network_options, process_media, queued, approval FROM x ORDER BY ord
       RETURNING id, created_at
     ), c AS (
       INSERT INTO containers (id, org_id, post_id, position, content) OVERRIDING SYSTEM VALUE
       SELECT coalesce(c.id, nextval(pg_get_serial_sequence('containers', 'id'))), x.org_id, x.id, c.position, c.content
         FROM x, jsonb_to_recordset(x.containers) AS c(id bigint, position int, content text) ORDER BY x.ord, c.position
       RETURNING id, post_id, position, content
     ), m AS (
       INSERT INTO container_media (id, org_id, container_id, position, url, filename, alt_text) OVERRIDING SYSTEM VALUE
       SELECT coalesce(m.id, nextval(pg_get_serial_sequence('container_media', 'id'))), x.org_id, c.id, m.position, m.url, m.filename, m.alt
         FROM x CROSS JOIN LATERAL jsonb_to_recordset(x.media) AS m(id bigint, container int, position int, url text, filename text, alt text)
         JOIN c ON c.post_id = x.id AND c.position = m.container
        ORDER BY x.ord, m.container, m.position
       RETURNING id, container_id, position, url, filename, alt_text
     ), t AS (
       INSERT INTO targets (org_id, post_id, account_id, due_at, status)
       SELECT x.org_id, x.id, a.account_id::bigint, CASE WHEN x.queued THEN coalesce(x.scheduled_at, now()) END,
              CASE WHEN x.approval = 'pending' THEN 'pending_approval' ELSE 'pending' END
         FROM x, jsonb_array_elements_text(x.accounts) WITH ORDINALITY AS a(account_id, position) ORDER BY x.ord, a.position
     )${keyed ? `, ${storedCte(`(SELECT x.org_id, x.key, decode(x.fingerprint, 'hex') AS fingerprint, x.status, x.response AS body, x.headers FROM x WHERE x.claim IS NOT NULL)`, '$2')}` : ''}
     SELECT (SELECT json_agg(json_build_array(p.id, p.created_at) ORDER BY x.ord) FROM x JOIN p ON p.id = x.id) AS posts,
            (SELECT json_agg(json_build_array(c.post_id, c.id) ORDER BY c.post_id, c.position) FROM c) AS containers,
            (SELECT json_agg(json_build_array(m.container_id, m.id) ORDER BY m.container_id, m.position) FROM m) AS media,
            ${keyed ? `(SELECT json_agg(k ORDER BY k.ord) FROM claims k) AS claims, ${allStored('(SELECT count(*) FROM x WHERE x.claim IS NOT NULL)')} AS all_stored` : 'NULL AS claims'}`;
}

/**
 * Reserves the ids of the posts' rows, and their created_at (this statement's time), from the
 * tables' own sequences: what a write that must know them first (its responses stored with it) writes.
 */
async function reserveIds(tx: Queryable, posts: NewPost[]): Promise<RowIds> {
  const containers = posts.flatMap((post) => post.request.containers);
  const media = containers.reduce((n, container) => n + container.media.length, 0);
  const { rows: [row] } = await tx.query<{ ids: { created_at: string; posts: number[]; containers: number[]; media: number[] } }>({
    ...prepared(`SELECT json_build_object('created_at', now(),
        'posts', ARRAY(SELECT nextval(pg_get_serial_sequence('posts', 'id')) FROM generate_series(1, $1)),
        'containers', ARRAY(SELECT nextval(pg_get_serial_sequence('containers', 'id')) FROM generate_series(1, $2)),
        'media', ARRAY(SELECT nextval(pg_get_serial_sequence('container_media', 'id')) FROM generate_series(1, $3))) AS ids`),
    values: [posts.length, containers.length, media],
  });
  const { ids } = row!;
  const out: RowIds = { posts: [], containers: [], media: [] };
  let nextContainer = 0;
  let nextMedia = 0;
  posts.forEach((post, i) => {
    const postId = ids.posts[i]!;
    out.posts.push([postId, ids.created_at]);
    for (const container of post.request.containers) {
      const containerId = ids.containers[nextContainer++]!;
      out.containers.push([postId, containerId]);
      for (let n = 0; n < container.media.length; n++) out.media.push([containerId, ids.media[nextMedia++]!]);
    }
  });
  return out;
}

/** The posts as stored, from their rows' ids (RowIds, in the posts' order). */
function storedPosts(posts: NewPost[], ids: RowIds): StoredPost[] {
  const containerIds = groupIds(ids.containers);
  const mediaIds = groupIds(ids.media);
  return posts.map(({ request }, i) => {
    const [postId, createdAt] = ids.posts[i]!;
    const ofPost = containerIds.get(postId)!;
    return {
      postId,
      createdAt: new Date(createdAt),
      containers: request.containers.map((container, position) => ({
        id: ofPost[position]!,
        content: container.content,
        media: container.media.map((m, n) => ({ id: mediaIds.get(ofPost[position]!)![n]!, url: m.url, filename: m.filename, altText: m.altText ?? null })),
      })),
    };
  });
}

/** [parent id, child id] pairs, children in order -> the child ids of each parent. */
function groupIds(pairs: [number, number][]): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const [parent, child] of pairs) {
    const children = byParent.get(parent);
    if (children) children.push(child);
    else byParent.set(parent, [child]);
  }
  return byParent;
}
