// The operator commands of `crier` (start | api | worker | migrate | org | key | secrets | doctor):
// they run Crier or work on its database. main.ts imports this file only for them.
import { flushCompileCache } from 'node:module';
import { parseArgs } from 'node:util';
import { loadConfig, type Config, parseSecretKey } from '../config.ts';
import { locateDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { createPool, type Db } from '../db/pool.ts';
import { explainFailure } from '../failures.ts';
import { OperatorError } from '../core/errors.ts';
import { encodeId } from '../core/ids.ts';
import { checkInstalled } from '../lazy.ts';
import { createLogger } from '../log.ts';
import { createApiKey, revokeApiKey } from '../orgs/api-keys.ts';
import { isRole, ROLES } from '../orgs/roles.ts';
import { createOrg, findOrgs, setSubscriptionStatus, type OrgMatch } from '../orgs/orgs.ts';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../orgs/subscription.ts';
import { setApiKeyRateLimit } from '../limits/quotas.ts';
import { linkStripeCustomer } from '../billing/stripe.ts';
import { startCrier, type Roles, type Running, type StartOptions } from '../runtime.ts';
import { announceStart } from './announce.ts';
import type { SandboxAccount } from '../sandbox/start.ts';
import { sandboxInboxUrl } from '../sandbox/inbox.ts';
import { runDoctor } from '../doctor.ts';
import { NETWORK_LIST, networkFor } from '../networks/registry.ts';
import { rotateSecretKey } from '../security/secret-key.ts';
import { CLIENT_USAGE, CRIER_COMMAND } from './usage.ts';

const SANDBOX_INDENT = ' '.repeat(24);

/** What `start --sandbox` runs, from the registry: every network with an emulator, by its label. */
function sandboxUsage(): string {
  const labels = NETWORK_LIST.filter((network) => network.sandbox).map((network) => network.label);
  const text = `--sandbox also runs emulators of ${countInWords(labels.length)} networks inside Crier (${labels.join(', ')}), ` +
    'connects a sandbox account on each, and readies the connect flow of every OAuth network';
  return wrap(text, 100 - SANDBOX_INDENT.length).map((line) => SANDBOX_INDENT + line).join('\n');
}

const NUMBER_WORDS = [
  'no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty',
];
const countInWords = (n: number) => NUMBER_WORDS[n] ?? String(n);

/** Words into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const USAGE = `Usage: ${CRIER_COMMAND} <command>    (in a checkout of Crier; plain \`crier\` once it is on your PATH)

  start [--sandbox]     API, worker and maintenance in one process (what npm start runs);
${sandboxUsage()}
  api                   only the HTTP API (run several behind a load balancer)
  worker                only the background worker
  migrate               apply database migrations and exit
  org create <name> [--status active]
  org subscription <org> <status>     status: ${SUBSCRIPTION_STATUSES.join(', ')}
  key create --org <org> --name <name> [--quota <n>] [--role admin|editor|approver]   prints the key once
  key revoke <key-id|key>
  key limit <key-id> <n|default>      a fixed rate limit for one key, or back to the org's
  org stripe-customer <org> <cus_...|none>   link the org to its Stripe customer
  secrets rotate [--new-key <hex>]    re-seal every stored secret under a new key (run it
                        with Crier stopped); the old key then fails closed
  doctor                check configuration, database, clock and public URL

${CLIENT_USAGE}

<org> is the organization's numeric id, its orgId shown by the API, or its exact name. A bare
\`${CRIER_COMMAND}\` prints this. Configuration comes from environment
variables (PORT, HOST, DATABASE_URL, CRIER_DATA_DIR, PUBLIC_BASE_URL, LOG_LEVEL, ...): see README.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    // Starting is `crier start` (what `npm start` runs): a bare `crier` only shows what it can do.
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env, NETWORK_LIST);
  try {
    return await run(config, command, rest);
  } catch (error) {
    throw new CommandFailed(explainFailure(error, config), { cause: error });
  }
}

async function run(config: Config, command: string, rest: string[]): Promise<number> {
  switch (command) {
    case 'start':
      return rest.includes('--sandbox') ? serveSandbox() : serve(config, { api: true, worker: true });
    case 'api':
      return serve(config, { api: true, worker: false });
    case 'worker':
      return serve(config, { api: false, worker: true });
    case 'migrate':
      return withDb(config, async () => 0, reportMigrations);
    case 'org':
      return withDb(config, (db) => orgCommand(db, rest));
    case 'key':
      return withDb(config, (db) => keyCommand(db, rest));
    case 'secrets':
      return withDb(config, (db) => secretsCommand(config, db, rest));
    case 'doctor':
      return runDoctor(config);
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

interface ServeHooks extends StartOptions {
  afterStart?: (running: Running) => Promise<void>;
}

async function serve(config: Config, roles: Roles, hooks: ServeHooks = {}): Promise<number> {
  // Packages loaded on first use (lazy.ts) would otherwise be found missing only when first needed.
  checkInstalled();
  const logger = createLogger(config.logLevel);
  // Listen for signals before starting, so a stop that arrives during start-up is not lost.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const running = await startCrier(config, logger, roles, hooks);
  announceStart(running, roles);
  logger.info({ url: running.url, roles }, 'crier started');
  // The compile cache (bin/crier.js) is written at exit, which a killed server never reaches: write
  // what the start compiled now, so that the next start finds it.
  flushCompileCache();
  await hooks.afterStart?.(running);
  await stopRequested;
  logger.info('stopping');
  await running.close();
  return 0;
}

/**
 * `crier start --sandbox`: the emulators run in this process. Their data is in memory, so every run
 * reconnects the sandbox accounts to them (same account ids), before the worker takes any job.
 */
async function serveSandbox(): Promise<number> {
  // The emulators are loaded only here: every other command would carry them in memory for nothing.
  const { connectSandboxAccounts, issueSandboxRunKey, prepareSandboxConnects, startSandbox } = await import('../sandbox/start.ts');
  const sandbox = await startSandbox(NETWORK_LIST);
  const config = loadConfig({ ...process.env, ...sandbox.env }, NETWORK_LIST);
  let guide: SandboxGuide | undefined;
  try {
    return await serve(config, { api: true, worker: true }, {
      sandbox: sandbox.controls,
      beforeWork: async ({ db, box, orgId }) => {
        const accounts = await connectSandboxAccounts(db, box, sandbox, orgId);
        const connectable = await prepareSandboxConnects(db, box, sandbox, orgId, config.publicBaseUrl);
        const emulators = sandbox.emulators.map(({ emulator, networks }) => ({ url: emulator.url, networks: networks.map((n) => n.id) }));
        guide = { key: await issueSandboxRunKey(db, orgId), accounts, connectable, inbox: sandboxInboxUrl(config)!, emulators };
      },
      afterStart: async (running) => printSandboxGuide(running.url!, guide!),
    });
  } finally {
    await sandbox.close();
  }
}

interface SandboxGuide {
  key: string;
  accounts: SandboxAccount[];
  connectable: string[];
  inbox: string;
  /** Where each emulator listens, and the networks it serves. */
  emulators: { url: string; networks: string[] }[];
}

function printSandboxGuide(url: string, guide: SandboxGuide): void {
  const { key, accounts, connectable, inbox, emulators } = guide;
  const needMedia = accounts.filter((a) => networkFor(a.network).media.requiresMedia);
  const textual = accounts.filter((a) => !needMedia.includes(a));
  const thread = { accounts: textual.map((a) => a.username), containers: [{ content: 'Hello from Crier' }, { content: 'and a reply' }], ...exampleBlocks(textual) };
  const auth = `-H "Authorization: Bearer ${key}" -H "Content-Type: application/json"`;
  const lines = [
    '',
    `Sandbox: emulators of ${countInWords(NETWORK_LIST.filter((network) => network.sandbox).length)} networks run inside this process; nothing leaves this machine.`,
    ...accounts.map((a) => `  ${a.network.padEnd(15)} ${handle(a).padEnd(18)} account id ${a.id}`),
    '',
    `  API key for this sandbox run: ${key}`,
    '  (the previous run\'s key is revoked. Crier\'s database persists between runs: posts, accounts,',
    '  webhooks and the admin key of the first start. The emulators start empty on every run.)',
    '',
    `  Publish a thread to ${textual.length === accounts.length ? 'all of them' : 'those that take a text post'}:`,
    `  curl -s ${url}/v1/posts ${auth} \\`,
    `    -d '${JSON.stringify(thread)}'`,
    `  then read each destination's status: curl -s ${url}/v1/posts/<post id> -H "Authorization: Bearer ${key}"`,
    ...(needMedia.length ? [mediaOnlyNote(needMedia)] : []),
    '',
    '  Receive its webhook with no setup: register the built-in inbox, publish, then list what it received:',
    `  curl -s ${url}/v1/webhooks ${auth} \\`,
    `    -d '{"name":"inbox","url":"${inbox}","events":["post.published","post.error"],"generateSecret":true}'`,
    `  curl -s ${url}/v1/sandbox/webhook-inbox -H "Authorization: Bearer ${key}"`,
    '',
    `  Try replies: once the thread is published, someone comments on it on ${networkFor(textual[0]!.network).label}; read the replies and answer them:`,
    `  curl -s ${url}/v1/sandbox/posts/<post id>/comments ${auth} \\`,
    `    -d '${JSON.stringify({ network: textual[0]!.network, text: 'Love this!', author: 'a_fan' })}'`,
    `  curl -s "${url}/v1/posts/<post id>/replies?network=${textual[0]!.network}" -H "Authorization: Bearer ${key}"`,
    '',
    `  Connect an account (${connectable.join(', ')}): open the auth_url this prints;`,
    '  the emulator consents at once and Crier answers the new account (or, for facebook, instagram,',
    '  linkedin and google_business, a session to pick pages from: GET /v1/social-accounts/pending/<session>):',
    `  curl -s ${url}/v1/social-networks/linkedin/auth-url ${auth} -d '{}'`,
    '',
    '  See what Crier sent each network: every call its emulator answered (method, path, query, a digest',
    '  of the body, status; never a token), oldest first:',
    ...emulators.map((e) => `  curl -s ${e.url}/__emulator/calls   # ${e.networks.join(', ')}`),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** The account as people write it: @sandbox_x (a YouTube username carries its @ already). */
const handle = (account: SandboxAccount) => (account.username.startsWith('@') ? account.username : `@${account.username}`);

/** Which sandbox accounts the text thread leaves out, and what they need. */
function mediaOnlyNote(accounts: SandboxAccount[]): string {
  const labels = [...new Set(accounts.map((a) => networkFor(a.network).label))];
  const verb = labels.length === 1 ? 'publishes' : 'publish';
  return `  (${accounts.map(handle).join(', ')}: ${labels.join(', ')} ${verb} only with an image or a video; upload one as the README's "Media" shows and put its url in the first container's media.)`;
}

/** The blocks the sandbox accounts need (Reddit's subreddit and title…), one per network. */
function exampleBlocks(accounts: SandboxAccount[]): Record<string, Record<string, unknown>> {
  const blocks: Record<string, Record<string, unknown>> = {};
  for (const account of accounts) if (account.exampleBlock) blocks[account.network] ??= account.exampleBlock;
  return blocks;
}

type MigrationReport = (applied: string[]) => void;

/** Other commands mention the migrations they applied on the side; for `crier migrate` it is the output. */
const noteMigrations: MigrationReport = (applied) => {
  if (applied.length) console.error(`applied migrations: ${applied.join(', ')}`);
};

const reportMigrations: MigrationReport = (applied) => {
  console.log(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'the database is up to date: no migration to apply');
};

/** Opens the database (migrated) for a one-shot command, and closes it after. */
async function withDb(config: Config, work: (db: Db) => Promise<number>, report = noteMigrations): Promise<number> {
  const database = await locateDatabase(config);
  try {
    const db = createPool(database.url, 2);
    try {
      report(await migrate(db));
      return await work(db);
    } finally {
      await db.end();
    }
  } finally {
    await database.stop();
  }
}

async function orgCommand(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { status: { type: 'string' } } });
  const [sub, ...params] = positionals;
  if (sub === 'create') {
    if (!params[0]) throw new UsageError(`org create needs the organization's name: ${CRIER_COMMAND} org create <name> [--status active]`);
    const status = parseStatus(values.status ?? 'active');
    const org = await createOrg(db, params[0], status);
    console.log(`org created: id ${org.orgId} (orgId ${encodeId(org.orgId)}), subscription ${status}`);
    console.log(`admin API key (shown once): ${org.apiKey}`);
    return 0;
  }
  if (sub === 'stripe-customer' && params[0] && params[1]) {
    const customer = params[1] === 'none' ? null : params[1];
    if (customer && !/^cus_\w+$/.test(customer)) throw new UsageError('the Stripe customer id looks like cus_...');
    const org = await resolveOrg(db, params[0]);
    await linkStripeCustomer(db, org.id, customer);
    console.log(`org ${org.id} (${org.name}): Stripe customer ${customer ?? 'unlinked'}`);
    return 0;
  }
  if (sub === 'subscription' && params[0] && params[1]) {
    const status = parseStatus(params[1]);
    const org = await resolveOrg(db, params[0]);
    await setSubscriptionStatus(db, org.id, status);
    console.log(`org ${org.id} (${org.name}): subscription ${status}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

async function keyCommand(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, name: { type: 'string' }, quota: { type: 'string' }, role: { type: 'string' } },
  });
  const [sub, param] = positionals;
  if (sub === 'create') {
    if (!values.org || !values.name) throw new UsageError(`key create needs --org and --name: ${CRIER_COMMAND} key create --org <org id or name> --name <name> [--quota <n>] [--role <role>]`);
    const quota = values.quota === undefined ? undefined : Number(values.quota);
    if (quota !== undefined && (!Number.isInteger(quota) || quota < 1)) throw new UsageError('--quota must be a positive integer');
    const role = values.role ?? 'admin';
    if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
    const org = await resolveOrg(db, values.org);
    const key = await createApiKey(db, org.id, values.name, quota, role);
    console.log(`key ${key.id} "${values.name}" (${role}) created for org ${org.id} (${org.name}). API key (shown once): ${key.key}`);
    return 0;
  }
  if (sub === 'revoke' && param) {
    const ok = await revokeApiKey(db, param);
    console.log(ok ? 'key revoked' : 'no active key matches');
    return ok ? 0 : 1;
  }
  const [, keyId, limit] = positionals;
  if (sub === 'limit' && keyId && /^\d+$/.test(keyId) && limit && /^(\d+|default)$/.test(limit)) {
    const ok = await setApiKeyRateLimit(db, Number(keyId), limit === 'default' ? null : Number(limit));
    console.log(ok ? `key ${keyId}: ${limit === 'default' ? "the org's dynamic limit" : `${limit} requests per window`}` : `no key ${keyId}`);
    return ok ? 0 : 1;
  }
  console.error(USAGE);
  return 2;
}

async function secretsCommand(config: Config, db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'new-key': { type: 'string' } } });
  if (positionals[0] !== 'rotate' || positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const newKey = values['new-key'] === undefined ? undefined : parseNewKey(values['new-key']);
  const result = await rotateSecretKey(config, db, newKey);
  const total = result.counts.reduce((sum, c) => sum + c.resealed, 0);
  console.log(`re-sealed ${total} secret(s): ${result.counts.filter((c) => c.resealed).map((c) => `${c.table}.${c.column} ${c.resealed}`).join(', ') || 'none stored yet'}`);
  if (result.keyFile) console.log(`the new key is in ${result.keyFile}; the old key no longer opens anything`);
  else if (newKey) console.log('set CRIER_SECRET_KEY to the new key for every Crier process, then start them; the old key no longer opens anything');
  else console.log(`set CRIER_SECRET_KEY=${result.newKeyHex} for every Crier process, then start them; the old key no longer opens anything`);
  return 0;
}

function parseNewKey(value: string): Buffer {
  try {
    return parseSecretKey(value);
  } catch (error) {
    throw new UsageError((error as Error).message.replace('CRIER_SECRET_KEY', '--new-key'));
  }
}

class UsageError extends OperatorError {}

/** The one organization `ref` names (numeric id, orgId or exact name), or a one-line refusal. */
async function resolveOrg(db: Db, ref: string): Promise<OrgMatch> {
  const matches = await findOrgs(db, ref);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new UsageError(`no organization "${ref}" (give its id, its orgId or its exact name)`);
  const listed = matches.map((org) => `id ${org.id} "${org.name}"`).join(', ');
  throw new UsageError(`"${ref}" is ambiguous, it matches ${matches.length} organizations (${listed}): give the id`);
}

function parseStatus(value: string): SubscriptionStatus {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(value)) {
    throw new UsageError(`status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`);
  }
  return value as SubscriptionStatus;
}

/** A failed command, explained in one line (failures.ts); the original error is its cause. */
class CommandFailed extends OperatorError {}

/** Runs an operator command (or prints the usage) and exits with its code. */
export function runOperator(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(explainFailure(error, undefined));
      // The stack is for whoever debugs Crier, not for the operator's screen.
      const level = process.env.LOG_LEVEL?.trim();
      if (level === 'debug' || level === 'trace') console.error(error instanceof CommandFailed ? error.cause : error);
      process.exit(1);
    },
  );
}
