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
  const fetchPost = async () => (await request<{ post: PostDetail }>(conn, `/v1/posts/${encodeURIComponent(id)}`)).body.post;
  let post = await fetchPost();
  if (options.watch) post = await watch(post, fetchPost, options.json, options.intervalMs ?? 1000);
  if (options.json) printJson({ success: true, post });
  else print(view(post));
  return post.socialAccounts.some((d) => FAILED.has(d.status)) ? EXIT.destinationFailed : EXIT.ok;
}

/** Polls until no destination is in flight, or nothing will ever move it (a draft, an unqueued post). */
async function watch(first: PostDetail, fetchPost: () => Promise<PostDetail>, json: boolean, intervalMs: number): Promise<PostDetail> {
  const live = !json && process.stdout.isTTY;
  let post = first;
  let shown = '';
  while (!settled(post)) {
    if (!json) shown = redraw(view(post), shown, live);
    await sleep(intervalMs);
    post = await fetchPost();
  }
  // The final view is printed by the caller: on a terminal, it replaces the live one.
  if (live && shown) process.stdout.write(`\x1b[${shown.split('\n').length}A\x1b[J`);
  return post;
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

export function view(post: PostDetail): string {
  const rows = post.socialAccounts.map((d) => [d.network, handle(d.username), d.status, d.platformPostUrl ?? d.error ?? (d.publishedAt ? when(d.publishedAt) : '')]);
  return [`post ${post.id}: ${summary(post)}`, table(['NETWORK', 'USERNAME', 'STATUS', 'URL OR ERROR'], rows)].join('\n');
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
