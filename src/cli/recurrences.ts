// `crier recurrences list | show <id> | create … | update <id> … | pause <id> | resume <id> | delete <id>`: posts that
// repeat, over /v1/recurrences; each occurrence becomes an ordinary post, created by the worker.
import { request, usageFailure, type Connection } from './api.ts';
import { excerpt, print, printJson, table, when } from './output.ts';
import { parseTime } from './post.ts';
import { dayName } from './queues.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface RecurrenceFlags {
  to: string[];
  text?: string;
  reply: string[];
  every?: string;
  weekly?: string;
  zone?: string;
  start?: string;
  count?: string;
  until?: string;
  json: boolean;
}

const USAGE = 'recurrences list | show <id> | create --to <id|username>... --text <text> (--every <2d|6h|1d12h> | --weekly <mon,thu@09:00> --zone <IANA zone>) [--start <time>] [--count <n>] [--until <time>] | update <id> --text <text> [--reply <text>]... | pause <id> | resume <id> | delete <id>';

export async function recurrencesCommand(conn: Connection, positionals: string[], flags: RecurrenceFlags): Promise<number> {
  const [sub, id, ...extra] = positionals;
  if (extra.length) throw usageFailure(`recurrences ${sub}: unexpected "${extra.join(' ')}"`);
  if (sub === 'list' && !id) return list(conn, flags.json);
  if (sub === 'create' && !id) return create(conn, flags);
  if (sub === 'show' && id) return show(conn, id, flags.json);
  if ((sub === 'pause' || sub === 'resume') && id) return setStatus(conn, id, sub === 'pause' ? 'paused' : 'active', flags.json);
  if (sub === 'delete' && id) return remove(conn, id, flags.json);
  if (sub === 'update' && id) return update(conn, id, flags);
  throw usageFailure(USAGE);
}

/** The rule in words: "every 2d", "weekly mon,thu 09:00 Europe/Paris". */
function ruleOf(r: any): string {
  if (r.every) return `every ${r.every.days ? `${r.every.days}d` : ''}${r.every.hours ? `${r.every.hours}h` : ''}`;
  return `weekly ${r.weekly.days.map((d: string) => d.slice(0, 3)).join(',')} ${r.weekly.time} ${r.weekly.timeZone}`;
}

const textOf = (r: any) => r.content ?? r.containers?.[0]?.content ?? '';

async function list(conn: Connection, json: boolean): Promise<number> {
  const { body } = await request(conn, '/v1/recurrences?limit=100');
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  const rows = (body.data as any[]).map((r) => [r.id, r.status, ruleOf(r), when(r.nextOccurrenceAt), String(r.postsCreated), excerpt(textOf(r))]);
  print(rows.length ? table(['ID', 'STATUS', 'RULE', 'NEXT', 'POSTS', 'TEXT'], rows) : `no recurring posts (${CRIER_COMMAND} recurrences create makes one)`);
  if (body.total > rows.length) print(`${rows.length} of ${body.total}`);
  return EXIT.ok;
}

async function show(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/recurrences/${encodeURIComponent(id)}`);
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  printRecurrence(body.data);
  const occurrences = (body.data.occurrences ?? []) as any[];
  if (occurrences.length) {
    print(table(['#', 'AT', 'POST', 'REFUSED'], occurrences.map((o) => [String(o.index + 1), when(o.scheduledAt), o.postId ?? '-', o.refused ?? ''])));
  }
  return EXIT.ok;
}

function printRecurrence(r: any): void {
  const bounds = [r.count === null ? '' : `${r.count} times`, r.until === null ? '' : `until ${when(r.until)}`].filter(Boolean).join(', ');
  print(`recurrence ${r.id} (${r.status}): ${ruleOf(r)} from ${when(r.startAt)}${bounds ? `, ${bounds}` : ''}`);
  print(`  "${excerpt(textOf(r), 70)}" to ${r.accounts.join(' ')}`);
  print(`  ${r.postsCreated} posts created, ${r.occurrencesSkipped} skipped; next: ${when(r.nextOccurrenceAt)}`);
}

/** `--every 2d`, `6h`, `1d12h` → {days, hours}. */
export function parseEvery(text: string): { days?: number; hours?: number } {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?$/.exec(text.trim());
  if (!match || (!match[1] && !match[2])) throw usageFailure(`--every "${text}": give days and/or hours, such as 2d, 6h or 1d12h`);
  return { ...(match[1] ? { days: Number(match[1]) } : {}), ...(match[2] ? { hours: Number(match[2]) } : {}) };
}

/** `--weekly mon,thu@09:00` with `--zone` → {days, time, timeZone}. */
export function parseWeekly(text: string, zone: string | undefined): { days: string[]; time: string; timeZone: string } {
  const [days, time, ...rest] = text.split('@');
  const names = (days ?? '').split(',').map(dayName);
  if (!time || rest.length || names.some((d) => d === undefined)) throw usageFailure(`--weekly "${text}": give days and a local time, such as mon,thu@09:00`);
  if (!zone) throw usageFailure('--weekly needs --zone <IANA zone>, such as --zone Europe/Paris: the time is local to it');
  return { days: names as string[], time: time.trim(), timeZone: zone };
}

async function create(conn: Connection, flags: RecurrenceFlags): Promise<number> {
  if (!flags.to.length || flags.text === undefined) throw usageFailure(`recurrences create needs --to <account> and --text (${CRIER_COMMAND} accounts lists the accounts)`);
  if ((flags.every === undefined) === (flags.weekly === undefined)) throw usageFailure('recurrences create needs one of --every (2d, 6h) or --weekly (mon,thu@09:00 with --zone)');
  const count = flags.count === undefined ? undefined : Number(flags.count);
  if (count !== undefined && (!Number.isInteger(count) || count < 1)) throw usageFailure(`--count must be a whole number of occurrences, not "${flags.count}"`);
  const body = {
    accounts: flags.to,
    containers: [{ content: flags.text }, ...flags.reply.map((content) => ({ content }))],
    ...(flags.every !== undefined ? { every: parseEvery(flags.every) } : { weekly: parseWeekly(flags.weekly!, flags.zone) }),
    ...(flags.start ? { startAt: parseTime(flags.start) } : {}),
    ...(count !== undefined ? { count } : {}),
    ...(flags.until ? { until: parseTime(flags.until) } : {}),
  };
  const { body: answer } = await request(conn, '/v1/recurrences', { method: 'POST', body });
  if (flags.json) printJson(answer);
  else {
    printRecurrence(answer.data);
    for (const warning of answer.warnings ?? []) print(`warning: ${warning}`);
  }
  return EXIT.ok;
}

/** The content of the occurrences to come (the one already created keeps its own). */
async function update(conn: Connection, id: string, flags: RecurrenceFlags): Promise<number> {
  if (flags.text === undefined) throw usageFailure(`recurrences update needs --text (and any --reply): ${CRIER_COMMAND} recurrences update <id> --text "..."`);
  const body = { containers: [{ content: flags.text }, ...flags.reply.map((content) => ({ content }))] };
  const { body: answer } = await request(conn, `/v1/recurrences/${encodeURIComponent(id)}`, { method: 'PATCH', body });
  if (flags.json) printJson(answer);
  else print(`recurrence ${id}: the occurrences from ${when(answer.data.nextOccurrenceAt)} on say "${excerpt(flags.text, 60)}" (one already created keeps its text)`);
  return EXIT.ok;
}

async function setStatus(conn: Connection, id: string, status: 'paused' | 'active', json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/recurrences/${encodeURIComponent(id)}`, { method: 'PATCH', body: { status } });
  if (json) printJson(body);
  else print(`recurrence ${id} ${status === 'paused' ? 'paused: no new occurrence until resumed' : `resumed; next: ${when(body.data.nextOccurrenceAt)}`}`);
  return EXIT.ok;
}

async function remove(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/recurrences/${encodeURIComponent(id)}`, { method: 'DELETE' });
  if (json) printJson(body);
  else {
    const cancelled = body.cancelledPostIds as string[];
    print(`recurrence ${id} deleted${cancelled.length ? `; occurrences cancelled: ${cancelled.join(' ')}` : ''}`);
  }
  return EXIT.ok;
}
