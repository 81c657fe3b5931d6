// `crier post`: builds the create body from flags, uploads local media first, and creates the post
// (or validates it with --dry-run) under one Idempotency-Key, reused if Crier asks to retry.
import { randomUUID } from 'node:crypto';
import { ClientFailure, request, usageFailure, type Connection } from './api.ts';
import { handle, print, printJson, table } from './output.ts';
import { resolveMedia } from './upload.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface PostFlags {
  to: string[];
  text?: string;
  reply: string[];
  media: string[];
  at?: string;
  draft: boolean;
  dryRun: boolean;
  idempotencyKey?: string;
  json: boolean;
}

export async function postCommand(conn: Connection, flags: PostFlags): Promise<number> {
  if (!flags.to.length) throw usageFailure(`post needs at least one --to <account id or username> (${CRIER_COMMAND} accounts lists them)`);
  if (flags.text === undefined && !flags.media.length) throw usageFailure('post needs --text, or --media for a media-only post');
  const scheduledAt = flags.at === undefined ? undefined : parseTime(flags.at);
  const media = await resolveMedia(conn, flags.media);
  const body = {
    accounts: flags.to,
    containers: [{ content: flags.text ?? '', media }, ...flags.reply.map((content) => ({ content }))],
    ...(scheduledAt ? { scheduledAt } : {}),
    ...(flags.draft ? { isDraft: true } : {}),
  };
  if (flags.dryRun) return dryRun(conn, body, flags.json);
  const key = flags.idempotencyKey ?? randomUUID();
  const { status, body: answer } = await request(conn, '/v1/posts', { method: 'POST', body, headers: { 'idempotency-key': key }, retries: 3 });
  if (flags.json) printJson(answer);
  else printCreated(answer, status);
  warnUnresolved(flags.to, answer.post.socialAccounts);
  return EXIT.ok;
}

function printCreated(answer: any, status: number): void {
  const post = answer.post;
  const state = post.isDraft ? 'saved as a draft' : post.scheduledAt && Date.parse(post.scheduledAt) > Date.now() ? `scheduled for ${post.scheduledAt}` : 'queued for publishing';
  print(`post ${post.id} ${state}, to ${post.socialAccounts.map((a: any) => `${a.network} ${handle(a.username)}`).join(', ')}`);
  for (const warning of answer.warnings ?? []) print(`warning: ${warning}`);
  if (status === 202) print('warning: created but not queued (a transient failure); requeue it by PATCHing scheduledAt');
  if (!post.isDraft) print(`follow it: ${CRIER_COMMAND} status ${post.id} --watch`);
}

/** Crier drops the --to entries that match no account when others match (spec rule 2): say which. */
function warnUnresolved(to: string[], accounts: { id: string; username: string }[]): void {
  for (const entry of to) {
    if (!accounts.some((a) => a.id === entry || a.username === entry)) console.error(`warning: --to ${entry} matches no account (ids and usernames are exact: ${CRIER_COMMAND} accounts lists them); the post goes to the others`);
  }
}

/** POST /v1/posts?dry_run=true: each destination's verdict; exit 2 when one would be refused. */
async function dryRun(conn: Connection, body: unknown, json: boolean): Promise<number> {
  // A Crier from before dry runs ignores the parameter and would create (and publish) the post.
  if (!(await offersDryRun(conn))) throw new ClientFailure(`the Crier at ${conn.url} has no dry run (POST /v1/posts?dry_run=true): upgrade it; nothing was sent`, EXIT.refused);
  const { body: answer } = await request(conn, '/v1/posts?dry_run=true', { method: 'POST', body });
  if (answer.dryRun !== true) throw new ClientFailure(`the Crier at ${conn.url} ignored dry_run and created post ${answer.post?.id}: cancel it with DELETE /v1/posts/${answer.post?.id}`, EXIT.unreachable, answer);
  const destinations = (answer.destinations ?? []) as { accountId: string; network: string; username: string; ok: boolean; reasons?: string[] }[];
  if (json) printJson(answer);
  else {
    const rows = destinations.map((d) => [d.accountId, d.network, handle(d.username), d.ok ? 'ok' : 'refused', (d.reasons ?? []).join('; ')]);
    print(table(['ACCOUNT', 'NETWORK', 'USERNAME', 'VERDICT', 'REASONS'], rows));
    for (const warning of answer.warnings ?? []) print(`warning: ${warning}`);
  }
  return destinations.every((d) => d.ok) ? EXIT.ok : EXIT.refused;
}

/** Whether Crier's OpenAPI document lists the dry_run parameter of POST /v1/posts. */
async function offersDryRun(conn: Connection): Promise<boolean> {
  const { body: openapi } = await request(conn, '/openapi.json');
  const parameters = (openapi?.paths?.['/v1/posts']?.post?.parameters ?? []) as { name?: string }[];
  return parameters.some((p) => p.name === 'dry_run');
}

/** `--at`: an ISO 8601 time, or from now: +30s, +10m, +2h, +1d. Answers ISO 8601. */
export function parseTime(value: string, now = Date.now()): string {
  const relative = /^\+(\d+)([smhd])$/.exec(value.trim());
  if (relative) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now + Number(relative[1]) * unit).toISOString();
  }
  // A date-time with its offset: a bare "2026-12-01 10:00" would depend on this machine's time zone.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(value) || Number.isNaN(Date.parse(value))) {
    throw usageFailure(`--at "${value}": give an ISO 8601 time with its offset (2026-12-01T10:00:00Z) or a delay (+30s, +10m, +2h, +1d)`);
  }
  return new Date(value).toISOString();
}
