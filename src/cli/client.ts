// The client commands of `crier`: parse the flags, call a running Crier over HTTP, print a table or
// --json. Only node: built-ins and this folder are imported (main.ts routes here before loading
// anything of the server).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { decisionCommand } from './approvals.ts';
import { editCommand } from './edit.ts';
import { evergreenCommand } from './evergreen.ts';
import { ClientFailure, connection, request, usageFailure, type Connection } from './api.ts';
import { excerpt, handle, print, printJson, table, when } from './output.ts';
import { postCommand } from './post.ts';
import { statusCommand } from './status.ts';
import { verifyCommand } from './verify.ts';
import { CLIENT_USAGE, CRIER_COMMAND, EXIT, type ClientCommand } from './usage.ts';
import { webhooksCommand } from './webhooks.ts';
import { eventsCommand } from './events.ts';
import { importCommand } from './bulk.ts';
import { queuesCommand } from './queues.ts';
import { recurrencesCommand } from './recurrences.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON: Options = { url: { type: 'string' }, key: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } };

const OPTIONS: Record<ClientCommand, Options> = {
  accounts: {},
  post: {
    to: { type: 'string', multiple: true, default: [] },
    text: { type: 'string' },
    reply: { type: 'string', multiple: true, default: [] },
    media: { type: 'string', multiple: true, default: [] },
    at: { type: 'string' },
    draft: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    'idempotency-key': { type: 'string' },
  },
  posts: Object.fromEntries(['account', 'tenant', 'created-after', 'created-before', 'scheduled-after', 'scheduled-before', 'status', 'limit', 'offset'].map((name) => [name, { type: 'string' }])),
  approve: {},
  reject: { reason: { type: 'string' } },
  edit: { text: { type: 'string' }, part: { type: 'string' } },
  status: { watch: { type: 'boolean', default: false } },
  verify: {
    account: { type: 'string' }, image: { type: 'string' }, video: { type: 'string' }, block: { type: 'string' },
    dry: { type: 'boolean', default: false }, keep: { type: 'boolean', default: false }, timeout: { type: 'string', default: '600' },
  },
  webhooks: { name: { type: 'string' }, endpoint: { type: 'string' }, events: { type: 'string' }, secret: { type: 'string' }, 'generate-secret': { type: 'boolean', default: false } },
  events: { after: { type: 'string' }, types: { type: 'string' }, limit: { type: 'string' }, follow: { type: 'boolean', default: false } },
  queues: { account: { type: 'string' }, zone: { type: 'string' }, slot: { type: 'string', multiple: true, default: [] }, slots: { type: 'string' } },
  recurrences: {
    to: { type: 'string', multiple: true, default: [] }, text: { type: 'string' }, reply: { type: 'string', multiple: true, default: [] },
    every: { type: 'string' }, weekly: { type: 'string' }, zone: { type: 'string' }, start: { type: 'string' }, count: { type: 'string' }, until: { type: 'string' },
  },
  evergreen: {
    name: { type: 'string' }, to: { type: 'string', multiple: true, default: [] }, text: { type: 'string', multiple: true, default: [] },
    variation: { type: 'string', multiple: true, default: [] }, queue: { type: 'boolean', default: false }, every: { type: 'string' },
    weekly: { type: 'string' }, zone: { type: 'string' }, start: { type: 'string' }, gap: { type: 'string' },
  },
  import: { 'dry-run': { type: 'boolean', default: false }, wait: { type: 'boolean', default: false }, 'idempotency-key': { type: 'string' } },
};

/** The commands whose first arguments are words (a subcommand, an id, a file) rather than flags. */
const TAKES_ARGUMENTS = new Set<ClientCommand>(['status', 'webhooks', 'verify', 'queues', 'recurrences', 'evergreen', 'import', 'approve', 'reject', 'edit']);

/** Runs one client command; answers its exit code (usage.ts EXIT), having said why on stderr. */
export async function runClient(command: ClientCommand, args: string[]): Promise<number> {
  let json = args.includes('--json');
  try {
    const { values, positionals } = parseFlags(args, { ...COMMON, ...OPTIONS[command] });
    json = values.json === true;
    if (values.help) {
      print(CLIENT_USAGE);
      return EXIT.ok;
    }
    const conn = connection({ url: values.url as string | undefined, key: values.key as string | undefined });
    return await dispatch(command, conn, values as Values, positionals);
  } catch (error) {
    return reportFailure(error, json);
  }
}

function parseFlags(args: string[], options: Options) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageFailure(`${(error as Error).message}\n\n${CLIENT_USAGE}`);
  }
}

type Values = Record<string, string | boolean | string[] | undefined>;

async function dispatch(command: ClientCommand, conn: Connection, values: Values, positionals: string[]): Promise<number> {
  const json = values.json === true;
  if (!TAKES_ARGUMENTS.has(command) && positionals.length) throw usageFailure(`${command} takes no argument "${positionals[0]}" (flags start with --)`);
  switch (command) {
    case 'accounts':
      return accounts(conn, json);
    case 'posts':
      return posts(conn, values, json);
    case 'status':
      if (positionals.length !== 1) throw usageFailure(`status needs one post id: ${CRIER_COMMAND} status <post id> [--watch]`);
      return statusCommand(conn, positionals[0]!, { watch: values.watch === true, json });
    case 'verify':
      return verifyCommand(conn, verifyFlags(values, positionals));
    case 'webhooks':
      return webhooksCommand(conn, positionals, { name: values.name as string, endpoint: values.endpoint as string, events: values.events as string, secret: values.secret as string, generateSecret: values['generate-secret'] === true, json });
    case 'events':
      return eventsCommand(conn, { after: values.after as string | undefined, types: values.types as string | undefined, limit: values.limit as string | undefined, follow: values.follow === true, json });
    case 'queues':
      return queuesCommand(conn, positionals, { account: values.account as string | undefined, zone: values.zone as string | undefined, slot: values.slot as string[], slots: values.slots as string | undefined, json });
    case 'recurrences':
      return recurrencesCommand(conn, positionals, {
        to: values.to as string[], text: values.text as string | undefined, reply: values.reply as string[], every: values.every as string | undefined,
        weekly: values.weekly as string | undefined, zone: values.zone as string | undefined, start: values.start as string | undefined,
        count: values.count as string | undefined, until: values.until as string | undefined, json,
      });
    case 'evergreen':
      return evergreenCommand(conn, positionals, {
        name: values.name as string | undefined, to: values.to as string[], text: values.text as string[], variation: values.variation as string[],
        queue: values.queue === true, every: values.every as string | undefined, weekly: values.weekly as string | undefined,
        zone: values.zone as string | undefined, start: values.start as string | undefined, gap: values.gap as string | undefined, json,
      });
    case 'approve':
    case 'reject':
      return decisionCommand(conn, command, positionals, { reason: values.reason as string | undefined, json });
    case 'edit':
      return editCommand(conn, positionals, { text: values.text as string | undefined, part: values.part as string | undefined, json });
    case 'import':
      return importCommand(conn, positionals, { dryRun: values['dry-run'] === true, wait: values.wait === true, idempotencyKey: values['idempotency-key'] as string | undefined, json });
    case 'post':
      return postCommand(conn, {
        to: values.to as string[], text: values.text as string | undefined, reply: values.reply as string[], media: values.media as string[],
        at: values.at as string | undefined, draft: values.draft === true, dryRun: values['dry-run'] === true,
        idempotencyKey: values['idempotency-key'] as string | undefined, json,
      });
  }
}

function verifyFlags(values: Values, positionals: string[]) {
  if (positionals.length !== 1) throw usageFailure(`verify needs one network: ${CRIER_COMMAND} verify <network> [--dry]`);
  const timeoutSeconds = Number(values.timeout);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1) throw usageFailure(`--timeout must be a whole number of seconds, not "${values.timeout}"`);
  return {
    network: positionals[0]!, account: values.account as string | undefined, image: values.image as string | undefined, video: values.video as string | undefined,
    block: values.block as string | undefined, dry: values.dry === true, keep: values.keep === true, timeoutSeconds, json: values.json === true,
  };
}

async function accounts(conn: Connection, json: boolean): Promise<number> {
  const { body } = await request(conn, '/v1/social-accounts?limit=100');
  if (json) printJson(body);
  else {
    const rows = (body.data as any[]).map((a) => [a.id, a.network, handle(a.username), a.nickname ?? '']);
    print(rows.length ? table(['ID', 'NETWORK', 'USERNAME', 'NICKNAME'], rows) : 'no connected accounts');
  }
  return EXIT.ok;
}

/** Flag → the list's query parameter (the spec's names). */
const POST_FILTERS: Record<string, string> = {
  account: 'social_account_id', tenant: 'tenant_id', 'created-after': 'created_after', 'created-before': 'created_before',
  'scheduled-after': 'scheduled_after', 'scheduled-before': 'scheduled_before', status: 'status', limit: 'limit', offset: 'offset',
};

async function posts(conn: Connection, values: Values, json: boolean): Promise<number> {
  const query = new URLSearchParams();
  for (const [flag, parameter] of Object.entries(POST_FILTERS)) if (typeof values[flag] === 'string') query.set(parameter, values[flag] as string);
  const { body } = await request(conn, `/v1/posts${query.size ? `?${query}` : ''}`);
  if (json) {
    printJson(body);
    return EXIT.ok;
  }
  const rows = (body.posts as any[]).map((p) => [p.id, when(p.createdAt), postState(p), p.socialAccounts.map((a: any) => handle(a.username)).join(' '), excerpt(p.containers[0]?.content)]);
  print(rows.length ? table(['ID', 'CREATED', 'STATE', 'ACCOUNTS', 'TEXT'], rows) : 'no posts');
  const { total, count, offset } = body.pagination;
  if (total > count) print(`${count} of ${total} (offset ${offset}): --offset ${offset + count} for the next page`);
  return EXIT.ok;
}

function postState(post: any): string {
  if (post.isDraft) return 'draft';
  if (post.approval?.status === 'pending') return 'waiting for approval';
  if (post.approval?.status === 'rejected') return 'rejected';
  if (post.publishedAt) return `published ${when(post.publishedAt)}`;
  if (post.scheduledAt && Date.parse(post.scheduledAt) > Date.now()) return `scheduled ${when(post.scheduledAt)}`;
  return post.scheduled ? 'publishing' : 'not queued';
}

function reportFailure(error: unknown, json: boolean): number {
  if (!(error instanceof ClientFailure)) {
    console.error(`crier: ${(error as Error).message}`);
    return EXIT.unreachable;
  }
  if (json && error.body !== undefined) printJson(error.body);
  console.error(`crier: ${error.message}`);
  return error.exitCode;
}
