// `crier status <post id> [--watch]`: each destination's state; --watch redraws it (or, when stdout
// is not a terminal, prints each change) until every destination is final, then the final view.
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Connection } from './api.ts';
import { handle, print, printJson, table, when } from './output.ts';
import { EXIT } from './usage.ts';

interface Destination {
  id: string;
  network: string;
  username: string;
  status: string;
  error: string | null;
  platformPostId: string | null;
  platformPostUrl: string | null;
  publishedAt: string | null;
}

interface PostDetail {
  id: string;
  isDraft: boolean;
  scheduled: boolean;
  scheduledAt: string | null;
  socialAccounts: Destination[];
}

const IN_FLIGHT = new Set(['pending', 'publishing']);
/** Final states a user must hear about: `unknown` is a publish whose outcome Crier could not learn. */
const FAILED = new Set(['failed', 'unknown']);

export async function statusCommand(conn: Connection, id: string, options: { watch: boolean; json: boolean; intervalMs?: number }): Promise<number> {
  const sandbox = sandboxAccounts(conn);
  const fetchPost = async () => {
    const post = (await request<{ post: PostDetail }>(conn, `/v1/posts/${encodeURIComponent(id)}`)).body.post;
    // The JSON is the API's answer as it is; the table says where a published post really is.
    return options.json ? { post, sandboxIds: new Set<string>() } : { post, sandboxIds: await sandbox.among(post.socialAccounts) };
  };
  let shown = await fetchPost();
  if (options.watch) shown = await watch(shown, fetchPost, options.json, options.intervalMs ?? 1000);
  const { post } = shown;
  if (options.json) printJson({ success: true, post });
  else print(view(post, shown.sandboxIds));
  return post.socialAccounts.some((d) => FAILED.has(d.status)) ? EXIT.destinationFailed : EXIT.ok;
}

/**
 * Which accounts are sandbox accounts (`sandbox: true`: connected by `crier start --sandbox`), asked
 * once per account and only for published destinations. Their posts are on an emulator: the URL it
 * answered has the real network's form (x.com/…) but leads nowhere there.
 */
function sandboxAccounts(conn: Connection) {
  const known = new Map<string, Promise<boolean>>();
  const isSandbox = (id: string) => {
    let answer = known.get(id);
    if (!answer) {
      answer = request<{ data: { sandbox?: boolean } }>(conn, `/v1/social-accounts/${encodeURIComponent(id)}`).then((r) => r.body.data.sandbox === true, () => false);
      known.set(id, answer);
    }
    return answer;
  };
  return {
    async among(destinations: Destination[]): Promise<Set<string>> {
      const published = [...new Set(destinations.filter((d) => d.status === 'published').map((d) => d.id))];
      const flags = await Promise.all(published.map(isSandbox));
      return new Set(published.filter((_, i) => flags[i]));
    },
  };
}

interface Shown {
  post: PostDetail;
  sandboxIds: Set<string>;
}

/** Polls until no destination is in flight, or nothing will ever move it (a draft, an unqueued post). */
async function watch(first: Shown, fetchPost: () => Promise<Shown>, json: boolean, intervalMs: number): Promise<Shown> {
  const live = !json && process.stdout.isTTY;
  let current = first;
  let shown = '';
  while (!settled(current.post)) {
    if (!json) shown = redraw(view(current.post, current.sandboxIds), shown, live);
    await sleep(intervalMs);
    current = await fetchPost();
  }
  // The final view is printed by the caller: on a terminal, it replaces the live one.
  if (live && shown) process.stdout.write(`\x1b[${shown.split('\n').length}A\x1b[J`);
  return current;
}

function settled(post: PostDetail): boolean {
  if (stuck(post)) return true;
  return post.socialAccounts.every((d) => !IN_FLIGHT.has(d.status));
}

/** A draft is never queued; a non-draft with `scheduled` false waits for a PATCH of scheduledAt. */
const stuck = (post: PostDetail) => post.isDraft || (!post.scheduled && post.socialAccounts.some((d) => d.status === 'pending'));

/** On a terminal: moves up over the previous view and draws the new one. Elsewhere: prints a view only when it changed. */
function redraw(text: string, previous: string, live: boolean): string {
  if (text === previous) return previous;
  if (live && previous) process.stdout.write(`\x1b[${previous.split('\n').length}A\x1b[J`);
  process.stdout.write(text + '\n');
  return text;
}

export function view(post: PostDetail, sandboxIds: ReadonlySet<string> = new Set()): string {
  const rows = post.socialAccounts.map((d) => [d.network, handle(d.username), d.status, whereOrWhy(d, sandboxIds.has(d.id))]);
  return [`post ${post.id}: ${summary(post)}`, table(['NETWORK', 'USERNAME', 'STATUS', 'URL OR ERROR'], rows)].join('\n');
}

/** The post's address on the network, or why there is none. */
function whereOrWhy(d: Destination, sandbox: boolean): string {
  if (sandbox && d.status === 'published') return `sandbox: not on the real network (post ${d.platformPostId ?? '?'} on the emulator)`;
  return d.platformPostUrl ?? d.error ?? (d.publishedAt ? when(d.publishedAt) : '');
}

function summary(post: PostDetail): string {
  const counts = new Map<string, number>();
  for (const d of post.socialAccounts) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  const tally = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  if (post.isDraft) return `draft, nothing publishes it (${tally})`;
  if (stuck(post)) return `not queued: PATCH its scheduledAt to requeue it (${tally})`;
  const scheduled = post.scheduledAt && Date.parse(post.scheduledAt) > Date.now() ? `scheduled for ${when(post.scheduledAt)}, ` : '';
  return scheduled + tally;
}
