// `crier webhooks list | create | delete | test`: the org's webhook endpoints over /v1/webhooks.
import { setTimeout as sleep } from 'node:timers/promises';
import { request, usageFailure, type Connection } from './api.ts';
import { print, printJson, table, when } from './output.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface WebhookFlags {
  name?: string;
  endpoint?: string;
  events?: string;
  generateSecret: boolean;
  secret?: string;
  json: boolean;
}

export async function webhooksCommand(conn: Connection, positionals: string[], flags: WebhookFlags): Promise<number> {
  const [sub, id, ...extra] = positionals;
  if (extra.length) throw usageFailure(`webhooks ${sub}: unexpected "${extra.join(' ')}"`);
  if (sub === 'list' && !id) return list(conn, flags.json);
  if (sub === 'create' && !id) return create(conn, flags);
  if ((sub === 'delete' || sub === 'test') && id) return sub === 'delete' ? remove(conn, id, flags.json) : test(conn, id, flags.json);
  throw usageFailure('webhooks list | create --name <n> --endpoint <https url> --events <e1,e2> [--generate-secret] | delete <id> | test <id>');
}

async function list(conn: Connection, json: boolean): Promise<number> {
  const { body } = await request(conn, '/v1/webhooks?limit=100');
  if (json) printJson(body);
  else {
    const rows = (body.data as any[]).map((w) => [String(w.id), w.name, w.enabled ? 'on' : 'off', w.events.join(','), w.url]);
    print(rows.length ? table(['ID', 'NAME', 'ENABLED', 'EVENTS', 'URL'], rows) : 'no webhooks');
  }
  return EXIT.ok;
}

async function create(conn: Connection, flags: WebhookFlags): Promise<number> {
  if (!flags.name || !flags.endpoint || !flags.events) throw usageFailure('webhooks create needs --name, --endpoint and --events (e.g. --events post.published,post.error)');
  const events = flags.events.split(',').map((e) => e.trim()).filter(Boolean);
  const body = { name: flags.name, url: flags.endpoint, events, ...(flags.secret ? { secret: flags.secret } : {}), ...(flags.generateSecret ? { generateSecret: true } : {}) };
  const { body: answer } = await request(conn, '/v1/webhooks', { method: 'POST', body });
  if (flags.json) printJson(answer);
  else {
    const hook = answer.data;
    print(`webhook ${hook.id} "${hook.name}" created: ${hook.events.join(', ')} → ${hook.url} (${when(hook.createdAt)})`);
    if (hook.secret) print(`signing secret (shown once): ${hook.secret}`);
  }
  return EXIT.ok;
}

async function remove(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
  if (json) printJson(body);
  else print(`webhook ${id} deleted`);
  return EXIT.ok;
}

/** Queues a test event, then waits for its first attempt (a delivery times out at 30 s) and reports it. */
async function test(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/webhooks/${encodeURIComponent(id)}/test`, { method: 'POST', body: {} });
  const { eventId } = body.data as { eventId: string };
  if (!json) print(`test event ${eventId} queued for webhook ${id}; waiting for its delivery…`);
  const attempt = await firstAttempt(conn, id, eventId);
  if (json) printJson({ ...body, attempt: attempt ?? null });
  else print(attempt ? describeAttempt(attempt) : `no attempt finished within 40 s: is a worker running? (${CRIER_COMMAND} start runs one)`);
  return attempt?.succeeded ? EXIT.ok : EXIT.destinationFailed;
}

interface Attempt {
  finishedAt: string | null;
  succeeded: boolean | null;
  statusCode: number | null;
  latencyMs: number | null;
  errorKind: string | null;
  error: string | null;
}

async function firstAttempt(conn: Connection, id: string, eventId: string): Promise<Attempt | undefined> {
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    const { body } = await request(conn, `/v1/webhooks/${encodeURIComponent(id)}/deliveries?eventId=${eventId}`);
    const finished = (body.data as Attempt[]).find((a) => a.finishedAt);
    if (finished) return finished;
    await sleep(500);
  }
  return undefined;
}

const describeAttempt = (a: Attempt) =>
  a.succeeded ? `delivered: HTTP ${a.statusCode} in ${a.latencyMs} ms` : `not delivered (${a.errorKind}${a.statusCode ? ` ${a.statusCode}` : ''}): ${a.error ?? ''} (Crier retries it)`;
