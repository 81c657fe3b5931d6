// `crier import <file.csv|file.jsonl> [--dry-run] [--wait]`, and `import list | show <id> | cancel <id>`:
// many posts from one file over /v1/posts/bulk. The dry run prints each row's verdict and exits 2
// when a row is refused; the real run queues a job under one Idempotency-Key (a retry is the same
// job) and, with --wait, follows it until every row is done.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientFailure, failureFor, request, unreachable, usageFailure, type Connection } from './api.ts';
import { handle, print, printJson, table, when } from './output.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface ImportFlags {
  dryRun: boolean;
  wait: boolean;
  idempotencyKey?: string;
  json: boolean;
}

const POLL_MS = 1000;
const USAGE = 'import <file.csv|file.jsonl> [--dry-run] [--wait] | import list | import show <id> | import cancel <id>';

export async function importCommand(conn: Connection, positionals: string[], flags: ImportFlags): Promise<number> {
  const [first, id, ...extra] = positionals;
  if (extra.length || !first) throw usageFailure(USAGE);
  if (first === 'list' && !id) return list(conn, flags.json);
  if (first === 'show' && id) return show(conn, id, flags);
  if (first === 'cancel' && id) return cancel(conn, id, flags.json);
  if (id) throw usageFailure(USAGE);
  return importFile(conn, first, flags);
}

/** JSON lines by the file's extension (.jsonl, .ndjson); anything else is sent as CSV. */
const contentTypeOf = (file: string) => (['.jsonl', '.ndjson'].includes(extname(file).toLowerCase()) ? 'application/x-ndjson' : 'text/csv');

async function importFile(conn: Connection, file: string, flags: ImportFlags): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw usageFailure(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (flags.dryRun) return dryRun(conn, text, contentTypeOf(file), flags.json);
  const key = flags.idempotencyKey ?? randomUUID();
  const answer = await sendFile(conn, '/v1/posts/bulk', text, contentTypeOf(file), { 'idempotency-key': key });
  const job = answer.data;
  if (!flags.wait) {
    if (flags.json) printJson(answer);
    else print(`import ${job.id} queued: ${job.total} rows; follow it: ${CRIER_COMMAND} import show ${job.id}`);
    return EXIT.ok;
  }
  if (!flags.json) console.error(`import ${job.id} queued: ${job.total} rows`);
  return follow(conn, job.id, flags.json);
}

/** POSTs the file as it is: request() sends JSON. A 409 (its key still in progress) is retried, as `post` does. */
async function sendFile(conn: Connection, path: string, text: string, contentType: string, headers: Record<string, string> = {}): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(conn.url + path, { method: 'POST', headers: { authorization: `Bearer ${conn.key}`, 'content-type': contentType, ...headers }, body: text });
    } catch (error) {
      throw unreachable(conn.url, error);
    }
    const raw = await response.text();
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      // not JSON: failureFor quotes the text
    }
    if (response.ok) return body;
    if (response.status === 409 && (body as { code?: string } | null)?.code === 'idempotency_in_progress' && attempt < 3) {
      await sleep(POLL_MS);
      continue;
    }
    throw failureFor(response.status, body);
  }
}

/** A verdict per row; exit 2 when any row is not ok (refused, or a destination would refuse it). */
async function dryRun(conn: Connection, text: string, contentType: string, json: boolean): Promise<number> {
  const answer = await sendFile(conn, '/v1/posts/bulk?dry_run=true', text, contentType);
  // A Crier that ignored the parameter would have queued the import: say how to stop it.
  if (answer.dryRun !== true) throw new ClientFailure(`the Crier at ${conn.url} ignored dry_run and queued import ${answer.data?.id}: cancel it with ${CRIER_COMMAND} import cancel ${answer.data?.id}`, EXIT.unreachable, answer);
  if (json) printJson(answer);
  else {
    print(table(['ROW', 'VERDICT', 'ACCOUNTS', 'REASONS'], (answer.rows as any[]).map(verdictRow)));
    print(`${answer.ok} ok, ${answer.total - answer.ok} refused`);
  }
  return answer.ok === answer.total ? EXIT.ok : EXIT.refused;
}

function verdictRow(row: any): string[] {
  const destinations = (row.destinations ?? []) as { username: string; ok: boolean; network: string; reasons: string[] }[];
  const verdict = row.ok ? 'ok' : row.accepted ? 'destination refused' : 'refused';
  const reasons = [
    ...(row.accepted ? [] : [row.error as string]),
    ...((row.details ?? []) as { field: string; message: string }[]).map((d) => `${d.field}: ${d.message}`),
    ...destinations.filter((d) => !d.ok).map((d) => `${d.network} ${handle(d.username)}: ${d.reasons.join('; ')}`),
    ...(row.scheduledAt ? [`next free slot ${when(row.scheduledAt)}`] : []),
  ];
  return [String(row.row), verdict, destinations.map((d) => handle(d.username)).join(' ') || '-', reasons.join('; ')];
}

const ENDED = new Set(['completed', 'cancelled']);
const progress = (job: any) => `${job.processed} of ${job.total} rows done: ${job.created} created, ${job.failed} failed${job.cancelled ? `, ${job.cancelled} cancelled` : ''}`;

/** Polls the job until it ends, saying its progress on stderr; the exit code says whether every row was created. */
async function follow(conn: Connection, id: string, json: boolean): Promise<number> {
  let said = '';
  for (;;) {
    const { body } = await request(conn, `/v1/posts/bulk/${encodeURIComponent(id)}`);
    const job = body.data;
    if (ENDED.has(job.status)) return finished(body, json);
    const line = `${job.status}: ${progress(job)}`;
    if (!json && line !== said) console.error(line);
    said = line;
    await sleep(POLL_MS);
  }
}

/** The job's end: its counts and each failed row's reason; exit 2 unless every row was created. */
function finished(body: any, json: boolean): number {
  const job = body.data;
  if (json) printJson(body);
  else printJob(job);
  return job.status === 'completed' && job.failed === 0 ? EXIT.ok : EXIT.refused;
}

function printJob(job: any): void {
  print(`import ${job.id} ${job.status}: ${progress(job)}`);
  const failed = ((job.rows ?? []) as any[]).filter((r) => r.status === 'failed');
  if (failed.length) print(table(['ROW', 'ERROR'], failed.map((r) => [String(r.row), [r.error?.error, ...(r.error?.details ?? []).map((d: any) => `${d.field}: ${d.message}`)].filter(Boolean).join('; ')])));
  if (job.status === 'cancelled' && job.created) print(`the ${job.created} posts created stay; cancel one with DELETE /v1/posts/<id> (${CRIER_COMMAND} import show ${job.id} --json lists their ids)`);
}

async function list(conn: Connection, json: boolean): Promise<number> {
  const { body } = await request(conn, '/v1/posts/bulk?limit=100');
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  const rows = (body.data as any[]).map((j) => [j.id, when(j.createdAt), j.status, String(j.total), `${j.created} created, ${j.failed} failed${j.cancelled ? `, ${j.cancelled} cancelled` : ''}`]);
  print(rows.length ? table(['ID', 'STARTED', 'STATUS', 'ROWS', 'OUTCOME'], rows) : `no imports (${CRIER_COMMAND} import <file.csv> makes one)`);
  if (body.count > rows.length) print(`${rows.length} of ${body.count}`);
  return EXIT.ok;
}

/** One job; with --wait, followed until it ends. */
async function show(conn: Connection, id: string, flags: ImportFlags): Promise<number> {
  if (flags.wait) return follow(conn, id, flags.json);
  const { body } = await request(conn, `/v1/posts/bulk/${encodeURIComponent(id)}`);
  if (flags.json) printJson(body);
  else printJob(body.data);
  return EXIT.ok;
}

async function cancel(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/posts/bulk/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
  if (json) printJson(body);
  else printJob(body.data);
  return EXIT.ok;
}
