// `crier queues list | show <id> [--slots N] | create --account <id|username> --zone <IANA> --slot <day@HH:MM>... | delete <id>`:
// each account's weekly posting slots over /v1/queues, which "next-free-slot" posts fill.
import { request, usageFailure, type Connection } from './api.ts';
import { handle, print, printJson, table, when } from './output.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export interface QueueFlags {
  account?: string;
  zone?: string;
  slot: string[];
  slots?: string;
  json: boolean;
}

const USAGE = 'queues list | show <id> [--slots N] | create --account <id|username> --zone <IANA zone> --slot <day@HH:MM>... | delete <id>';

/** Day names as people abbreviate them, to the API's words. */
export const DAYS: Record<string, string> = {
  mon: 'monday', tue: 'tuesday', wed: 'wednesday', thu: 'thursday', fri: 'friday', sat: 'saturday', sun: 'sunday',
};

/** `mon` or `monday` → `monday`; undefined for anything else. */
export function dayName(text: string): string | undefined {
  const day = text.trim().toLowerCase();
  return DAYS[day] ?? (Object.values(DAYS).includes(day) ? day : undefined);
}

export async function queuesCommand(conn: Connection, positionals: string[], flags: QueueFlags): Promise<number> {
  const [sub, id, ...extra] = positionals;
  if (extra.length) throw usageFailure(`queues ${sub}: unexpected "${extra.join(' ')}"`);
  if (sub === 'list' && !id) return list(conn, flags.json);
  if (sub === 'create' && !id) return create(conn, flags);
  if (sub === 'show' && id) return show(conn, id, flags);
  if (sub === 'delete' && id) return remove(conn, id, flags.json);
  throw usageFailure(USAGE);
}

/** The accounts' usernames by id: the tables name accounts as people do. */
async function usernames(conn: Connection): Promise<Map<string, string>> {
  const { body } = await request(conn, '/v1/social-accounts?limit=100');
  return new Map((body.data as { id: string; network: string; username: string }[]).map((a) => [a.id, `${a.network} ${handle(a.username)}`]));
}

const slotList = (slots: { day: string; time: string }[]) => slots.map((s) => `${s.day.slice(0, 3)} ${s.time}`).join(', ');

async function list(conn: Connection, json: boolean): Promise<number> {
  const { body } = await request(conn, '/v1/queues?limit=100');
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  const names = await usernames(conn);
  const rows = (body.data as any[]).map((q) => [q.id, names.get(q.socialAccountId) ?? q.socialAccountId, q.timeZone, slotList(q.slots)]);
  print(rows.length ? table(['ID', 'ACCOUNT', 'ZONE', 'SLOTS'], rows) : `no queues (${CRIER_COMMAND} queues create makes one)`);
  if (body.count > rows.length) print(`${rows.length} of ${body.count}`);
  return EXIT.ok;
}

/** The queue and its next slots, each with the posts that stand at it. */
async function show(conn: Connection, id: string, flags: QueueFlags): Promise<number> {
  const count = flags.slots === undefined ? 10 : Number(flags.slots);
  if (!Number.isInteger(count) || count < 1) throw usageFailure(`--slots must be a whole number of slots, not "${flags.slots}"`);
  const path = `/v1/queues/${encodeURIComponent(id)}`;
  const { body: queue } = await request(conn, path);
  const { body: slots } = await request(conn, `${path}/slots?count=${count}`);
  if (flags.json) {
    printJson({ ...queue, slots: slots.data });
    return EXIT.ok;
  }
  const q = queue.data;
  const account = (await usernames(conn)).get(q.socialAccountId) ?? q.socialAccountId;
  print(`queue ${q.id} of ${account}, ${q.timeZone}: ${slotList(q.slots)}`);
  const rows = (slots.data as any[]).map((s) => [`${s.day.slice(0, 3)} ${s.time}`, when(s.at), s.postIds.length ? `taken: ${s.postIds.join(' ')}` : 'free', s.withinSchedulingWindow ? '' : 'beyond the 30-day window']);
  print(table(['SLOT', 'AT', 'POSTS', ''], rows));
  return EXIT.ok;
}

/** `--slot mon@09:00` (or `monday@09:00`) → {day, time}; the API judges the time itself. */
export function parseSlot(text: string): { day: string; time: string } {
  const [day, time, ...rest] = text.split('@');
  const name = day === undefined ? undefined : dayName(day);
  if (!name || !time || rest.length) throw usageFailure(`--slot "${text}": give a day and a local time, such as mon@09:00 or thursday@17:30`);
  return { day: name, time: time.trim() };
}

/** An account id as given, or the id of the account with that exact username. */
export async function accountId(conn: Connection, entry: string): Promise<string> {
  const { body } = await request(conn, '/v1/social-accounts?limit=100');
  const accounts = body.data as { id: string; username: string }[];
  const bare = entry.replace(/^@/, '');
  const found = accounts.find((a) => a.id === entry) ?? accounts.find((a) => a.username.replace(/^@/, '') === bare);
  if (!found) throw usageFailure(`--account ${entry} matches no connected account (${CRIER_COMMAND} accounts lists them)`);
  return found.id;
}

async function create(conn: Connection, flags: QueueFlags): Promise<number> {
  if (!flags.account || !flags.zone || !flags.slot.length) throw usageFailure('queues create needs --account, --zone and at least one --slot (e.g. --slot mon@09:00 --slot thu@17:30)');
  const slots = flags.slot.map(parseSlot);
  const body = { socialAccountId: await accountId(conn, flags.account), timeZone: flags.zone, slots };
  const { body: answer } = await request(conn, '/v1/queues', { method: 'POST', body });
  if (flags.json) printJson(answer);
  else print(`queue ${answer.data.id} created: ${slotList(answer.data.slots)} in ${answer.data.timeZone}; its next slots: ${CRIER_COMMAND} queues show ${answer.data.id}`);
  return EXIT.ok;
}

async function remove(conn: Connection, id: string, json: boolean): Promise<number> {
  const { body } = await request(conn, `/v1/queues/${encodeURIComponent(id)}`, { method: 'DELETE' });
  if (json) printJson(body);
  else print(`queue ${id} deleted (posts already in its slots keep their time)`);
  return EXIT.ok;
}
