// The `crier` command line: start | api | worker | migrate | org | key | doctor.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, parseEnv } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { locateDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createPool, type Db } from './db/pool.ts';
import { decodeId, encodeId } from './ids.ts';
import { createLogger } from './log.ts';
import { createApiKey, createOrg, revokeApiKey, setSubscriptionStatus, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './orgs/orgs.ts';
import { setApiKeyRateLimit } from './orgs/api-keys.ts';
import { linkStripeCustomer } from './billing/stripe.ts';
import { startCrier, type Roles, type Running } from './runtime.ts';
import { connectSandboxAccounts, prepareSandboxConnects, startSandbox, type SandboxAccount } from './sandbox.ts';
import { runDoctor } from './doctor.ts';
import { parseSecretKey } from './security/crypto.ts';
import { rotateSecretKey } from './security/secret-key.ts';

const USAGE = `Usage: crier <command>

  start [--sandbox]     API, worker and maintenance in one process (the default);
                        --sandbox also runs the network emulators, with sandbox accounts on X
                        and Bluesky and a ready connect flow on every OAuth network
  api                   only the HTTP API (run several behind a load balancer)
  worker                only the background worker
  migrate               apply database migrations and exit
  org create <name> [--status active]
  org subscription <org> <status>     status: ${SUBSCRIPTION_STATUSES.join(', ')}
  key create --org <org> --name <name> [--quota <n>]   prints the key once
  key revoke <key-id|key>
  key limit <key-id> <n|default>      a fixed rate limit for one key, or back to the org's
  org stripe-customer <org> <cus_...|none>   link the org to its Stripe customer
  secrets rotate [--new-key <hex>]    re-seal every stored secret under a new key (run it
                        with Crier stopped); the old key then fails closed
  doctor                check configuration, database, clock and public URL

<org> is the numeric id or the orgId shown by the API. Configuration comes from environment
variables (PORT, HOST, DATABASE_URL, CRIER_DATA_DIR, PUBLIC_BASE_URL, LOG_LEVEL, ...): see README.`;

/** An optional `.env` in the working directory; variables already set in the environment win. */
function loadDotEnv(): void {
  if (!existsSync('.env')) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync('.env', 'utf8')))) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
}

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  const [command, ...rest] = argv;
  if ((command === undefined || command === 'start') && rest.includes('--sandbox')) return serveSandbox();
  const config = loadConfig();
  switch (command) {
    case undefined:
    case 'start':
      return serve(config, { api: true, worker: true });
    case 'api':
      return serve(config, { api: true, worker: false });
    case 'worker':
      return serve(config, { api: false, worker: true });
    case 'migrate':
      return withDb(config, async () => 0);
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

async function serve(config: Config, roles: Roles, afterStart?: (running: Running) => Promise<void>): Promise<number> {
  const logger = createLogger(config.logLevel);
  // Listen for signals before starting, so a stop that arrives during start-up is not lost.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const running = await startCrier(config, logger, roles);
  logger.info({ url: running.url, roles }, 'crier started');
  await afterStart?.(running);
  await stopRequested;
  logger.info('stopping');
  await running.close();
  return 0;
}

/** `crier start --sandbox`: the emulators run in this process and sandbox accounts are connected. */
async function serveSandbox(): Promise<number> {
  const sandbox = await startSandbox();
  const config = loadConfig({ ...process.env, ...sandbox.env });
  try {
    return await serve(config, { api: true, worker: true }, async (running) => {
      const org = await running.db.query<{ id: number }>('SELECT id FROM orgs ORDER BY id LIMIT 1');
      const orgId = org.rows[0]!.id;
      const accounts = await connectSandboxAccounts(running.db, running.box, sandbox, orgId);
      const connectable = await prepareSandboxConnects(running.db, running.box, sandbox, orgId, config.publicBaseUrl);
      // The admin key is printed only on the very first start; a sandbox run always gets a key to use.
      const key = running.firstStartKey ?? (await createApiKey(running.db, orgId, `sandbox ${new Date().toISOString()}`)).key;
      printSandboxGuide(running.url!, key, accounts, connectable);
    });
  } finally {
    await sandbox.close();
  }
}

function printSandboxGuide(url: string, key: string, accounts: SandboxAccount[], connectable: string[]): void {
  const lines = [
    '',
    'Sandbox: emulators of the twelve networks run inside this process; nothing leaves this machine.',
    ...accounts.map((a) => `  ${a.network.padEnd(8)} @${a.username.padEnd(14)} account id ${a.id}`),
    '',
    `  API key for this sandbox run: ${key}`,
    '',
    '  Publish a thread to both:',
    `  curl -s ${url}/v1/posts -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`,
    `    -d '{"accounts":["${accounts.map((a) => a.username).join('","')}"],"containers":[{"content":"Hello from Crier"},{"content":"and a reply"}]}'`,
    '',
    `  Connect an account (${connectable.join(', ')}): open the auth_url this prints;`,
    '  the emulator consents at once and Crier answers the new account (or, for facebook, instagram,',
    '  linkedin and google_business, a session to pick pages from: GET /v1/social-accounts/pending/<session>):',
    `  curl -s ${url}/v1/social-networks/linkedin/auth-url -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{}'`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** Opens the database (migrated) for a one-shot command, and closes it after. */
async function withDb(config: Config, work: (db: Db) => Promise<number>): Promise<number> {
  const database = await locateDatabase(config);
  const db = createPool(database.url, 2);
  try {
    const applied = await migrate(db, database.url);
    if (applied.length) console.error(`applied migrations: ${applied.join(', ')}`);
    return await work(db);
  } finally {
    await db.end();
    await database.stop();
  }
}

async function orgCommand(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { status: { type: 'string' } } });
  const [sub, ...params] = positionals;
  if (sub === 'create' && params[0]) {
    const status = parseStatus(values.status ?? 'active');
    const org = await createOrg(db, params[0], status);
    console.log(`org created: id ${org.orgId} (orgId ${encodeId(org.orgId)}), subscription ${status}`);
    console.log(`admin API key (shown once): ${org.apiKey}`);
    return 0;
  }
  if (sub === 'stripe-customer' && params[0] && params[1]) {
    const customer = params[1] === 'none' ? null : params[1];
    if (customer && !/^cus_\w+$/.test(customer)) throw new UsageError('the Stripe customer id looks like cus_...');
    const ok = await linkStripeCustomer(db, parseOrg(params[0]), customer);
    console.log(ok ? `org ${params[0]}: Stripe customer ${customer ?? 'unlinked'}` : `no organization ${params[0]}`);
    return ok ? 0 : 1;
  }
  if (sub === 'subscription' && params[0] && params[1]) {
    const orgId = parseOrg(params[0]);
    const ok = await setSubscriptionStatus(db, orgId, parseStatus(params[1]));
    console.log(ok ? `org ${orgId}: subscription ${params[1]}` : `no organization ${params[0]}`);
    return ok ? 0 : 1;
  }
  console.error(USAGE);
  return 2;
}

async function keyCommand(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, name: { type: 'string' }, quota: { type: 'string' } },
  });
  const [sub, param] = positionals;
  if (sub === 'create' && values.org && values.name) {
    const quota = values.quota === undefined ? undefined : Number(values.quota);
    if (quota !== undefined && (!Number.isInteger(quota) || quota < 1)) throw new UsageError('--quota must be a positive integer');
    const key = await createApiKey(db, parseOrg(values.org), values.name, quota);
    console.log(`key ${key.id} "${values.name}" created. API key (shown once): ${key.key}`);
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

class UsageError extends Error {}

function parseOrg(value: string): number {
  const id = /^\d+$/.test(value) ? Number(value) : decodeId(value);
  if (!id) throw new UsageError(`"${value}" is not an organization id`);
  return id;
}

function parseStatus(value: string): SubscriptionStatus {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(value)) {
    throw new UsageError(`status must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`);
  }
  return value as SubscriptionStatus;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof UsageError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
