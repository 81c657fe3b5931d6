// `crier evergreen list | show <id> | create … | add <id> … | pause <id> | resume <id> | delete <id>`:
// pools of posts re-shared on the accounts' queue or a rule, over /v1/evergreen-collections; each
// re-share becomes an ordinary post, created by the worker.
import { request, usageFailure, type Connection } from './api.ts';
import { excerpt, print, printJson, table, when } from './output.ts';
import { parseTime } from './post.ts';
import { parseEvery, parseWeekly } from './recurrences.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface EvergreenFlags {
  name?: string;
  to: string[];
  text: string[];
  variation: string[];
  queue: boolean;
  every?: string;
  weekly?: string;
  zone?: string;
  start?: string;
  gap?: string;
  json: boolean;
}

const USAGE = 'evergreen list | show <id> | create --name <n> --to <id|username>... --text <item>... (--queue | --every <7d> | --weekly <mon@09:00> --zone <IANA zone>) [--gap <days>] [--start <time>] | add <id> --text <item> [--variation <text>]... | pause <id> | resume <id> | delete <id>';

export async function evergreenCommand(conn: Connection, positionals: string[], flags: EvergreenFlags): Promise<number> {
  const [sub, id, ...extra] = positionals;
  if (extra.length) throw usageFailure(`evergreen ${sub}: unexpected "${extra.join(' ')}"`);
  if (sub === 'list' && !id) return list(conn, flags.json);
  if (sub === 'create' && !id) return create(conn, flags);
  if (sub === 'show' && id) return show(conn, id, flags.json);
  if (sub === 'add' && id) return add(conn, id, flags);
  if ((sub === 'pause' || sub === 'resume') && id) return setStatus(conn, id, sub === 'pause' ? 'paused' : 'active', flags.json);
  if (sub === 'delete' && id) return remove(conn, id, flags.json);
  throw usageFailure(USAGE);
}

/** The schedule in words: "queue", "every 7d", "weekly mon 09:00 Europe/Paris". */
function scheduleOf(c: any): string {
  if (c.queue) return 'queue';
  if (c.every) return `every ${c.every.days ? `${c.every.days}d` : ''}${c.every.hours ? `${c.every.hours}h` : ''}`;
  return `weekly ${c.weekly.days.map((d: string) => d.slice(0, 3)).join(',')} ${c.weekly.time} ${c.weekly.timeZone}`;
}

const textOf = (item: any) => item.content ?? item.containers?.[0]?.content ?? '';

async function list(conn: Connection, json: boolean): Promise<number> {
  const { body } = await request(conn, '/v1/evergreen-collections?limit=100');
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  const rows = (body.data as any[]).map((c) => [c.id, c.status, c.name, scheduleOf(c), `${c.minGapDays}d`, String(c.itemCount), when(c.nextRunAt)]);
  print(rows.length ? table(['ID', 'STATUS', 'NAME', 'SCHEDULE', 'GAP', 'ITEMS', 'NEXT'], rows) : `no evergreen collections (${CRIER_COMMAND} evergreen create makes one)`);
  return EXIT.ok;
}

async function show(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/evergreen-collections/${encodeURIComponent(id)}`);
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  printCollection(body.data);
  const items = (body.data.items ?? []) as any[];
  if (items.length) print(table(['ITEM', 'USED', 'LAST', 'TEXT'], items.map((i) => [i.id, String(i.timesUsed), when(i.lastUsedAt), excerpt(textOf(i))])));
  return EXIT.ok;
}

function printCollection(c: any): void {
  print(`evergreen ${c.id} "${c.name}" (${c.status}): ${scheduleOf(c)}, an item at most every ${c.minGapDays} days, to ${c.accounts.join(' ')}`);
  print(`  ${c.itemCount} items, ${c.turns} posts so far; next: ${when(c.nextRunAt)}${c.waiting ? `; waiting: ${c.waiting}` : ''}`);
}

function gapOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const days = Number(text);
  if (!Number.isInteger(days) || days < 0) throw usageFailure(`--gap must be a whole number of days, not "${text}"`);
  return days;
}

async function create(conn: Connection, flags: EvergreenFlags): Promise<number> {
  if (!flags.name || !flags.to.length || !flags.text.length) {
    throw usageFailure(`evergreen create needs --name, --to <account> and at least one --text <item> (${CRIER_COMMAND} accounts lists the accounts)`);
  }
  const schedules = [flags.queue, flags.every !== undefined, flags.weekly !== undefined].filter(Boolean).length;
  if (schedules !== 1) throw usageFailure('evergreen create needs one of --queue (the accounts\' next free slots), --every (7d) or --weekly (mon@09:00 with --zone)');
  const gap = gapOf(flags.gap);
  const body = {
    name: flags.name,
    accounts: flags.to,
    ...(flags.queue ? { queue: true } : flags.every !== undefined ? { every: parseEvery(flags.every) } : { weekly: parseWeekly(flags.weekly!, flags.zone) }),
    ...(flags.start ? { startAt: parseTime(flags.start) } : {}),
    ...(gap !== undefined ? { minGapDays: gap } : {}),
    items: flags.text.map((content) => ({ content })),
  };
  const { body: answer } = await request(conn, '/v1/evergreen-collections', { method: 'POST', body });
  if (flags.json) printJson(answer);
  else {
    printCollection(answer.data);
    for (const warning of answer.warnings ?? []) print(`warning: ${warning}`);
  }
  return EXIT.ok;
}

async function add(conn: Connection, id: string, flags: EvergreenFlags): Promise<number> {
  if (flags.text.length !== 1) throw usageFailure(`evergreen add needs one --text <item> (and any --variation <text>): ${CRIER_COMMAND} evergreen add <id> --text "..."`);
  const body = { content: flags.text[0], ...(flags.variation.length ? { variations: flags.variation.map((content) => ({ content })) } : {}) };
  const { body: answer } = await request(conn, `/v1/evergreen-collections/${encodeURIComponent(id)}/items`, { method: 'POST', body });
  if (flags.json) printJson(answer);
  else print(`item ${answer.data.id} added to evergreen ${id}${flags.variation.length ? ` with ${flags.variation.length} variation(s)` : ''}`);
  return EXIT.ok;
}

async function setStatus(conn: Connection, id: string, status: 'paused' | 'active', json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/evergreen-collections/${encodeURIComponent(id)}`, { method: 'PATCH', body: { status } });
  if (json) printJson(body);
  else print(`evergreen ${id} ${status === 'paused' ? 'paused: no new post until resumed' : `resumed; next: ${when(body.data.nextRunAt)}`}`);
  return EXIT.ok;
}

async function remove(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/evergreen-collections/${encodeURIComponent(id)}`, { method: 'DELETE' });
  if (json) printJson(body);
  else {
    const cancelled = body.cancelledPostIds as string[];
    print(`evergreen ${id} deleted${cancelled.length ? `; posts cancelled: ${cancelled.join(' ')}` : ''}`);
  }
  return EXIT.ok;
}
