// The bench's traffic and its checks: creating posts through Crier's API, waiting until their targets
// are done, and checking every one against the emulator — one tweet per target, one attempt each.
import { setTimeout as sleep } from 'node:timers/promises';
import type { XEmulator, XTweet } from '../../emulators/x/server.ts';
import { decodeId } from '../../src/core/ids.ts';
import type { Env } from './run.ts';
import { percentile, round } from '../stats.ts';

/** A phase that finishes no target for this long is stuck: reported as broken. */
const STALL_MS = 60_000;

export interface Created {
  postIds: number[];
  /** When each post's create was sent, by its content. */
  sentAt: Map<string, number>;
  firstSentAt: number;
  lastAnsweredAt: number;
  elapsedSec: number;
}

/**
 * POST /v1/posts from `connections` concurrent loops spread over `apis`, `count` posts or for
 * `durationSec`: post i on account i % N with the content `<tag> <i>`. Anything but a 200 is broken.
 */
export async function createPosts(
  env: Env,
  apis: string[],
  options: { count?: number; durationSec?: number; connections: number; tag: string; scheduledAt?: Date },
): Promise<Created> {
  const postIds: number[] = [];
  const sentAt = new Map<string, number>();
  const codes: Record<string, number> = {};
  let firstFailure: string | undefined;
  let next = 0;
  const firstSentAt = Date.now();
  const until = options.durationSec === undefined ? Number.POSITIVE_INFINITY : firstSentAt + options.durationSec * 1000;
  const count = options.count ?? Number.POSITIVE_INFINITY;
  const loop = async (connection: number) => {
    const api = apis[connection % apis.length]!;
    for (let i = next++; i < count && Date.now() < until; i = next++) {
      const account = env.fixture.accounts[i % env.fixture.accounts.length]!;
      const content = `${options.tag} ${i}`;
      sentAt.set(content, Date.now());
      const res = await fetch(`${api}/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.fixture.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accounts: [account.id], content, ...(options.scheduledAt ? { scheduledAt: options.scheduledAt.toISOString() } : {}) }),
      });
      const text = await res.text();
      codes[res.status] = (codes[res.status] ?? 0) + 1;
      if (res.status === 200) postIds.push(rawPostId(JSON.parse(text).post.id));
      else firstFailure ??= `HTTP ${res.status}: ${text.slice(0, 300)}`;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, c) => loop(c)));
  const lastAnsweredAt = Date.now();
  const sent = Object.values(codes).reduce((a, b) => a + b, 0);
  if (postIds.length !== sent) {
    const summary = Object.entries(codes).map(([c, n]) => `${c}: ${n}`).join(', ');
    throw new Error(`${options.tag}: only ${postIds.length} of ${sent} creates answered 200 (${summary}); first failure ${firstFailure}`);
  }
  return { postIds, sentAt, firstSentAt, lastAnsweredAt, elapsedSec: (lastAnsweredAt - firstSentAt) / 1000 };
}

/** The API answers public (sqids) post ids; the bench works with raw ones. */
function rawPostId(publicId: string): number {
  const id = decodeId(publicId);
  if (id === undefined) throw new Error(`the API answered a post id that does not decode: ${publicId}`);
  return id;
}

/**
 * Polls the database until no target of `postIds` is open any more (pending or publishing). The
 * figures take their times from the tweets' own creation times, not from this poll. Throws when
 * nothing moves for STALL_MS (a stuck queue, a dead worker).
 */
export async function waitForTargets(env: Pick<Env, 'db'>, name: string, postIds: number[], log: (line: string) => void): Promise<void> {
  let lastDone = -1;
  let lastProgressAt = Date.now();
  let lastLogAt = Date.now();
  const startedAt = Date.now();
  for (;;) {
    const { rows } = await env.db.query<{ done: number; published: number; total: number }>(
      `SELECT count(*) FILTER (WHERE status NOT IN ('pending', 'publishing'))::int AS done,
              count(*) FILTER (WHERE status = 'published')::int AS published, count(*)::int AS total
         FROM targets WHERE post_id = ANY($1::bigint[])`,
      [postIds],
    );
    const { done, published, total } = rows[0]!;
    if (total > 0 && done === total) return;
    const now = Date.now();
    if (done !== lastDone) {
      lastDone = done;
      lastProgressAt = now;
    } else if (now - lastProgressAt > STALL_MS) {
      throw new Error(`${name}: stuck at ${done}/${total} targets done (${published} published) for ${STALL_MS / 1000} s`);
    }
    if (now - lastLogAt >= 10_000) {
      lastLogAt = now;
      log(`${name}: ${published}/${total} published after ${((now - startedAt) / 1000).toFixed(0)} s`);
    }
    await sleep(250);
  }
}

/**
 * Every target of `postIds` published, with exactly one tweet each on the emulator (content
 * `<tag> ...`, unique per target), its platform id being that tweet, in exactly one attempt.
 * Anything else is recorded in `problems`. Returns the tweets and the attempts' durations.
 */
export async function verifyPublished(
  env: Pick<Env, 'db'> & { x: Pick<XEmulator, 'tweets'> }, name: string, postIds: number[], tag: string, problems: string[], log: (line: string) => void,
): Promise<{ tweets: XTweet[]; attemptMs: Float64Array; stages: Stages | undefined }> {
  const { rows: targets } = await env.db.query<{ id: number; status: string; platform_post_id: string | null; attempt_count: number; attempts: number; error: string | null }>(
    `SELECT t.id, t.status, t.platform_post_id, t.attempt_count, t.error,
            (SELECT count(*)::int FROM attempts a WHERE a.target_id = t.id AND a.outcome = 'published') AS attempts
       FROM targets t WHERE t.post_id = ANY($1::bigint[]) ORDER BY t.id`,
    [postIds],
  );
  const tweets = env.x.tweets().filter((t) => t.text.startsWith(`${tag} `));
  const before = problems.length;
  const notPublished = targets.filter((t) => t.status !== 'published');
  if (notPublished.length) {
    const sample = notPublished.slice(0, 3).map((t) => `#${t.id} ${t.status}: ${t.error}`).join('; ');
    problems.push(`${name}: ${notPublished.length} of ${targets.length} targets not published (${sample})`);
  }
  if (targets.length !== postIds.length) problems.push(`${name}: ${postIds.length} posts have ${targets.length} targets, expected one each`);
  if (tweets.length !== targets.length) problems.push(`${name}: the emulator holds ${tweets.length} tweets for ${targets.length} targets`);
  const byText = new Map<string, number>();
  for (const t of tweets) byText.set(t.text, (byText.get(t.text) ?? 0) + 1);
  const duplicated = [...byText].filter(([, n]) => n > 1);
  if (duplicated.length) problems.push(`${name}: ${duplicated.length} targets were posted more than once (e.g. "${duplicated[0]![0]}" ${duplicated[0]![1]} times)`);
  const tweetIds = new Set(tweets.map((t) => t.id));
  const unmatched = targets.filter((t) => t.status === 'published' && !tweetIds.has(t.platform_post_id ?? ''));
  if (unmatched.length) problems.push(`${name}: ${unmatched.length} published targets point at no tweet of this figure (e.g. #${unmatched[0]!.id} -> ${unmatched[0]!.platform_post_id})`);
  const retried = targets.filter((t) => t.attempt_count !== 1 || t.attempts !== 1);
  if (retried.length) problems.push(`${name}: ${retried.length} targets took other than one attempt (e.g. #${retried[0]!.id}: ${retried[0]!.attempt_count})`);
  if (problems.length === before) log(`${name}: verified ${targets.length} targets published, ${tweets.length} tweets, one attempt each`);
  // One read of the attempts serves both the attempt times and their stages (attemptStages).
  const { rows: attempts } = await env.db.query<AttemptTimes>(
    `SELECT t.platform_post_id AS tweet, a.outcome, a.started_at AS started, a.finished_at AS finished,
            extract(epoch FROM a.finished_at - a.started_at)::float8 * 1000 AS ms,
            (SELECT min(q.at) FROM account_admissions q WHERE q.target_id = t.id) AS admitted
       FROM attempts a JOIN targets t ON t.id = a.target_id
      WHERE t.post_id = ANY($1::bigint[]) AND a.finished_at IS NOT NULL`,
    [postIds],
  );
  const attemptMs = Float64Array.from(attempts.map((a) => a.ms)).sort();
  return { tweets, attemptMs, stages: attemptStages(attempts, tweets) };
}

/** A finished attempt's timestamps (each its statement's transaction start), with its target's tweet. */
interface AttemptTimes {
  tweet: string | null;
  outcome: string;
  started: Date;
  admitted: Date | null;
  finished: Date;
  /** finished - started, to the microsecond. */
  ms: number;
}

/** Where a destination's time went between its claim and its recorded outcome, per stage: p50 and p99 in ms. */
export interface Stages {
  /** Claim to quota admission (the claim's statement, then waiting for the admission batch). */
  claimToAdmitted: [number, number];
  /** Admission to the tweet's creation at the emulator (the reservation step's commit, a network slot, the request). */
  admittedToNetwork: [number, number];
  /** The tweet's creation to the recorded outcome (the answer, then the outcome's group commit). */
  networkToRecorded: [number, number];
}

/**
 * The stages of the published attempts, from the database's timestamps (the claim, the admission, the
 * outcome) and the emulator's creation time of each tweet (same machine, same clock). Undefined when
 * no target was admitted (quotas off).
 */
function attemptStages(attempts: AttemptTimes[], tweets: XTweet[]): Stages | undefined {
  const createdAt = new Map(tweets.map((t) => [t.id, Date.parse(t.createdAt)]));
  const stages = { claimToAdmitted: [] as number[], admittedToNetwork: [] as number[], networkToRecorded: [] as number[] };
  for (const attempt of attempts) {
    const tweeted = attempt.tweet === null ? undefined : createdAt.get(attempt.tweet);
    if (attempt.outcome !== 'published' || tweeted === undefined || !attempt.admitted) continue;
    stages.claimToAdmitted.push(attempt.admitted.getTime() - attempt.started.getTime());
    stages.admittedToNetwork.push(tweeted - attempt.admitted.getTime());
    stages.networkToRecorded.push(attempt.finished.getTime() - tweeted);
  }
  if (!stages.claimToAdmitted.length) return undefined;
  const p50p99 = (values: number[]): [number, number] => {
    const sorted = Float64Array.from(values).sort();
    return [round(percentile(sorted, 0.5), 1), round(percentile(sorted, 0.99), 1)];
  };
  return { claimToAdmitted: p50p99(stages.claimToAdmitted), admittedToNetwork: p50p99(stages.admittedToNetwork), networkToRecorded: p50p99(stages.networkToRecorded) };
}
