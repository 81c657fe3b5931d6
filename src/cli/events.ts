// `crier events [--after <cursor>] [--types a,b] [--limit <n>] [--follow]`: the org's event feed
// (GET /v1/events), the events its webhooks carry, oldest first. --follow reads every page, then
// polls for new events and prints each as it comes, until interrupted (Ctrl-C ends it with 0).
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Connection } from './api.ts';
import { excerpt, print, printJson, table, when } from './output.ts';
import { EXIT } from './usage.ts';

export interface EventsFlags {
  after?: string;
  types?: string;
  limit?: string;
  follow: boolean;
  json: boolean;
  /** How long --follow waits between polls once it has read everything. */
  intervalMs?: number;
}

interface FeedEvent {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
  cursor: string;
}

interface FeedPage {
  data: FeedEvent[];
  next: string | null;
  hasMore: boolean;
}

const HEADER = ['TIME', 'EVENT', 'ID', 'ABOUT'];

export async function eventsCommand(conn: Connection, flags: EventsFlags): Promise<number> {
  const read = (after: string | null) => request<FeedPage & Record<string, unknown>>(conn, `/v1/events?${feedQuery(flags, after)}`);
  if (!flags.follow) {
    const { body } = await read(flags.after ?? null);
    if (flags.json) printJson(body);
    else printPage(body);
    return EXIT.ok;
  }
  return follow(read, flags);
}

/** The query of one page: the flags as given (Crier judges them), and the cursor reached. */
function feedQuery(flags: EventsFlags, after: string | null): URLSearchParams {
  const query = new URLSearchParams();
  if (after) query.set('after', after);
  if (flags.types !== undefined) query.set('types', flags.types);
  if (flags.limit !== undefined) query.set('limit', flags.limit);
  return query;
}

function printPage(page: FeedPage): void {
  print(page.data.length ? table(HEADER, page.data.map(row)) : 'no events');
  if (page.next) print(`${page.hasMore ? 'more events' : 'nothing more yet'}: --after ${page.next}`);
}

/**
 * Prints every event after the cursor, then polls. In a table each event is one line with fixed
 * widths (rows arrive over time, so columns cannot be sized to them); with --json each event is one
 * line of the API's JSON (NDJSON, for `jq` as it streams).
 */
async function follow(read: (after: string | null) => Promise<{ body: FeedPage }>, flags: EventsFlags): Promise<number> {
  const interrupted = new Promise<void>((resolve) => process.once('SIGINT', resolve));
  let stop = false;
  void interrupted.then(() => (stop = true));
  if (!flags.json) print(line(HEADER));
  let after = flags.after ?? null;
  while (!stop) {
    const { body } = await read(after);
    for (const event of body.data) print(flags.json ? JSON.stringify(event) : line(row(event)));
    after = body.next ?? after;
    if (!body.hasMore) await Promise.race([sleep(flags.intervalMs ?? 1000), interrupted]);
  }
  return EXIT.ok;
}

const WIDTHS = [20, 21, 36];

function line(cells: string[]): string {
  return cells.map((cell, i) => (i < WIDTHS.length ? cell.padEnd(WIDTHS[i]!) : cell)).join('  ').trimEnd();
}

function row(event: FeedEvent): string[] {
  return [when(event.timestamp), event.event, event.id, about(event.data)];
}

/** The ids that say what an event is about (its post, comment, import…), then its text or error. */
const ABOUT_KEYS = ['postId', 'import_id', 'conversationId', 'messageId', 'commentId', 'accountId', 'endpointId'];
const TEXT_KEYS = ['error', 'text', 'content', 'message'];

function about(data: Record<string, unknown>): string {
  const ids = ABOUT_KEYS.filter((key) => data[key] !== undefined && data[key] !== null).map((key) => `${key}=${data[key]}`);
  const textKey = TEXT_KEYS.find((key) => typeof data[key] === 'string' && data[key]);
  return [...ids, ...(textKey ? [`"${excerpt(data[textKey] as string)}"`] : [])].join(' ');
}
