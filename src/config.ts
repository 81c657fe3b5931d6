// Environment -> typed configuration, validated once at start with messages that say what to fix.
// It imports nothing of Crier but core/: what it must know of the networks (their ids, their own
// variables) is handed in by the composition root (`loadConfig(env, NETWORK_LIST)`), so the networks,
// which read their settings from here, sit above it, never beside it.
import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError } from './core/errors.ts';

/** A configuration id of a login dialog (Meta's Facebook Login for Business `config_id`): digits. */
export const LOGIN_CONFIG_ID = /^\d{1,32}$/;

/** The operator's own OAuth app of a network (the "managed key"), from CRIER_<NETWORK>_CLIENT_ID/_SECRET. */
export interface ManagedApp {
  clientId: string;
  clientSecret: string;
  /** CRIER_<NETWORK>_LOGIN_CONFIG_ID, where the network's dialog takes one (Meta's config_id). */
  loginConfigId?: string;
}

/** By network id. */
export type ManagedApps = Partial<Record<string, ManagedApp>>;

/** loadConfig's readers, bound to the environment and its list of problems: what a network reads its own variables with. */
export interface NetworkEnv {
  /** An http(s) URL without trailing slashes; `fallback` when unset. */
  url(name: string, fallback: string): string;
  /** Same, undefined when unset. */
  optionalUrl(name: string): string | undefined;
  /** A whole number from `min` up; `fallback` when unset. */
  integer(name: string, fallback: number, min?: number): number;
  /** The trimmed value; undefined when unset or empty. */
  text(name: string): string | undefined;
}

/** What the configuration reads of each network (its Network, networks/contract.ts), in the registry's order. */
export interface ConfigurableNetwork {
  id: string;
  label: string;
  connect: { kind: string; loginConfiguration?: string };
  config: { read(env: NetworkEnv): unknown };
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  /** External PostgreSQL; when absent Crier runs its embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  logLevel: LogLevel;
  /** Base64 or hex 32-byte key for token encryption; generated into the data dir when absent. */
  secretKey: string | undefined;
  /** Where the 402 body points when an org has no billing URL of its own. */
  billingUrl: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Bearer token that /metrics requires; absent: /metrics is not served. */
  metricsToken: string | undefined;
  databasePoolSize: number;
  /**
   * Each network's own settings (where its API is: tests and the sandbox point them at the emulators),
   * read by the network's `config` (src/networks/<network>/index.ts); only that network reads them back.
   */
  networks: Readonly<Record<string, unknown>>;
  /**
   * The operator's own OAuth apps (CRIER_<NETWORK>_CLIENT_ID and _CLIENT_SECRET, the "managed key"):
   * an organization that registered no app of a network connects through the operator's.
   */
  managedApps: ManagedApps;
  publishing: {
    /** Destinations one worker process publishes at once. */
    concurrency: number;
    /** Of those, how many may carry media (downloads, uploads, renditions: memory and CPU). */
    mediaConcurrency: number;
    /** Attempts per destination before a retryable error becomes a failure. */
    maxAttempts: number;
    /**
     * A network's refusals (429s, spent quotas: calls it certainly did not carry out) after which a
     * destination fails; they are not counted as attempts, each waits the time the network stated.
     */
    maxRefusals: number;
    retryBaseMs: number;
    /** A worker that stops renewing its lease (killed) loses its destinations to another after this. */
    heartbeatSeconds: number;
    /** How often a worker looks for destinations whose worker died. */
    superviseIntervalSeconds: number;
    /**
     * CRIER_ACCOUNT_QUOTAS: replaces networks' per-account quotas (their `limits.accountQuota`): `off`
     * for all of them (load tests against emulators), or per network `<id>=<max>/<window>` or `<id>=off`.
     */
    accountQuotas: AccountQuotaOverrides;
  };
  /** `crier start --sandbox`: the networks are emulators, accounts connected are marked sandbox. */
  sandbox: boolean;
  /** The SSRF guard lets loopback through: tests only (CRIER_ALLOW_LOOPBACK_FETCH=true). */
  allowLoopbackFetch: boolean;
  /** Extra CA certificate (PEM file) trusted for guarded fetches, e.g. a test server's. */
  extraCaFile: string | undefined;
  webhooks: {
    /** Webhook sends one worker process runs at once. */
    concurrency: number;
    /** Multiplies the attempt timeout and the retry delays (CRIER_WEBHOOK_TIME_SCALE): tests and benches only. */
    timeScale: number;
    /** Events, and their deliveries and attempts, are kept this long once nothing is pending. */
    retentionDays: number;
  };
  /** Per-window request limits of API keys (limits/request-hook.ts); fixed-quota keys are counted regardless. */
  rateLimit: {
    enabled: boolean;
    /** Bounds of the per-organization formula, in requests per window. */
    floor: number;
    ceiling: number;
    windowSeconds: number;
    /** Namespace of the counters in Redis, so several deployments (or test runs) can share one Redis. */
    redisPrefix: string;
  };
  /** Requests with an invalid API key, per client address (http/auth-failures.ts). */
  authFailures: {
    /** Failures allowed per window; past it the address is refused until the window ends. */
    limit: number;
    windowSeconds: number;
  };
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's trustProxy): false
   * (the socket's peer is the client), true (every hop), or the proxies' addresses and CIDR ranges.
   */
  trustProxy: boolean | string[];
  /**
   * CRIER_REDIRECT_ORIGINS: the origins a connect's `redirect_uri` may send the user to (PUBLIC_BASE_URL's,
   * where the dashboard is, always); undefined: any http(s) URL the organization's key chooses.
   */
  redirectOrigins?: string[];
  /** Redis for request counters (rate limits, invalid keys) shared by every API process; per-process memory when absent. */
  redisUrl: string | undefined;
  /** Stripe subscription webhooks (POST /billing/stripe/webhook); absent: the CLI sets subscription status. */
  stripe: { secretKey: string; webhookSecret: string } | undefined;
  /** Uploaded media and video renditions (src/media), stored under `<dataDir>/media`. */
  media: {
    /** Largest upload (PUT to the signed URL) accepted; larger answers 413. */
    maxUploadBytes: number;
    /** Lifetime of a signed upload URL, and of an upload that was never confirmed. */
    uploadUrlTtlSeconds: number;
    /** Confirmed media and renditions are deleted this many days after they were created. */
    retentionDays: number;
    /** ffmpeg / ffprobe binaries; undefined: the ones shipped by @ffmpeg-installer and @ffprobe-installer. */
    ffmpegPath: string | undefined;
    ffprobePath: string | undefined;
    /** Re-encodes one worker process runs at once (each one keeps every core it is given busy). */
    encodeConcurrency: number;
  };
}

export { ConfigError };

/** Per network: its own quota (absent), another one, or none (`off`); or `off` for every network. */
export type AccountQuotaOverrides = 'off' | Partial<Record<string, { max: number; windowMs: number } | 'off'>>;

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv, networkList: readonly ConfigurableNetwork[]): Config {
  const problems: string[] = [];
  const port = integer(env, 'PORT', 3000, 0, 65535, problems);
  const host = env.HOST?.trim() || '0.0.0.0';
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const dataDir = path.resolve(env.CRIER_DATA_DIR?.trim() || './data');
  const publicBaseUrl = (env.PUBLIC_BASE_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!isHttpUrl(publicBaseUrl)) problems.push(`PUBLIC_BASE_URL must be an http(s) URL, got "${publicBaseUrl}"`);
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const secretKey = env.CRIER_SECRET_KEY?.trim() || undefined;
  if (secretKey) problems.push(...secretKeyProblem(secretKey));
  const billingUrl = env.CRIER_BILLING_URL?.trim() || `${publicBaseUrl}/billing`;
  if (!isHttpUrl(billingUrl)) problems.push('CRIER_BILLING_URL must be an http(s) URL');
  const bodyLimit = integer(env, 'CRIER_BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576, problems);
  const databasePoolSize = integer(env, 'DATABASE_POOL_SIZE', 20, 1, 500, problems);
  const metricsToken = env.CRIER_METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('CRIER_METRICS_TOKEN must be at least 16 characters (a random token: openssl rand -hex 24)');
  const networks = networkSettings(env, networkList, problems);
  const operatorApps = managedApps(env, networkList, problems);
  const publishing = {
    concurrency: integer(env, 'CRIER_PUBLISH_CONCURRENCY', 256, 1, 1024, problems),
    mediaConcurrency: integer(env, 'CRIER_PUBLISH_MEDIA_CONCURRENCY', 8, 1, 256, problems),
    maxAttempts: integer(env, 'CRIER_PUBLISH_MAX_ATTEMPTS', 5, 1, 50, problems),
    maxRefusals: integer(env, 'CRIER_PUBLISH_MAX_REFUSALS', 100, 1, 10_000, problems),
    retryBaseMs: integer(env, 'CRIER_PUBLISH_RETRY_BASE_MS', 10_000, 10, 3_600_000, problems),
    heartbeatSeconds: integer(env, 'CRIER_PUBLISH_HEARTBEAT_SECONDS', 30, 2, 3600, problems),
    superviseIntervalSeconds: integer(env, 'CRIER_SUPERVISE_INTERVAL_SECONDS', 10, 1, 3600, problems),
    accountQuotas: accountQuotaOverrides(env, networkList.map((network) => network.id), problems),
  };
  const allowLoopbackFetch = env.CRIER_ALLOW_LOOPBACK_FETCH === 'true';
  const sandbox = env.CRIER_SANDBOX === 'true';
  const extraCaFile = env.CRIER_EXTRA_CA_FILE?.trim() || undefined;
  const webhooks = webhookConfig(env, problems);
  const rateLimit = {
    enabled: boolean(env, 'CRIER_RATE_LIMIT_ENABLED', true, problems),
    floor: integer(env, 'CRIER_RATE_LIMIT_FLOOR', 600, 1, 1_000_000_000, problems),
    ceiling: integer(env, 'CRIER_RATE_LIMIT_CEILING', 3000, 1, 1_000_000_000, problems),
    windowSeconds: integer(env, 'CRIER_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400, problems),
    redisPrefix: env.CRIER_RATE_LIMIT_REDIS_PREFIX?.trim() || 'crier:rl',
  };
  if (rateLimit.ceiling < rateLimit.floor) {
    problems.push(`CRIER_RATE_LIMIT_CEILING (${rateLimit.ceiling}) must be at least CRIER_RATE_LIMIT_FLOOR (${rateLimit.floor})`);
  }
  const authFailures = {
    limit: integer(env, 'CRIER_AUTH_FAILURE_LIMIT', 30, 1, 1_000_000_000, problems),
    windowSeconds: integer(env, 'CRIER_AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400, problems),
  };
  const trustProxy = trustedProxies(env, problems);
  const redirectOrigins = allowedRedirectOrigins(env, problems);
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const stripe = stripeConfig(env, problems);
  const media = {
    maxUploadBytes: integer(env, 'CRIER_MEDIA_MAX_UPLOAD_BYTES', 512 * 1_048_576, 1, 64 * 1024 ** 3, problems),
    uploadUrlTtlSeconds: integer(env, 'CRIER_MEDIA_UPLOAD_TTL_SECONDS', 900, 1, 7 * 86_400, problems),
    retentionDays: integer(env, 'CRIER_MEDIA_RETENTION_DAYS', 60, 1, 3650, problems),
    ffmpegPath: env.CRIER_FFMPEG_PATH?.trim() || undefined,
    ffprobePath: env.CRIER_FFPROBE_PATH?.trim() || undefined,
    encodeConcurrency: integer(env, 'CRIER_MEDIA_ENCODE_CONCURRENCY', 2, 1, 64, problems),
  };
  if (problems.length) {
    // One problem, one line (what operators grep their logs for); several, one line each.
    throw new ConfigError(problems.length === 1 ? `Invalid configuration: ${problems[0]}` : `Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    port, host, databaseUrl, dataDir, publicBaseUrl, logLevel, secretKey, billingUrl, bodyLimit, metricsToken, databasePoolSize,
    networks, managedApps: operatorApps, publishing, sandbox, allowLoopbackFetch, extraCaFile, rateLimit, authFailures, trustProxy, redisUrl, stripe, webhooks, media,
    ...(redirectOrigins ? { redirectOrigins } : {}),
  };
}

/** Parses CRIER_SECRET_KEY (64 hex chars or base64 of 32 bytes). */
export function parseSecretKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('CRIER_SECRET_KEY must be 32 bytes: 64 hex characters or base64');
  return key;
}

/** Checked with the rest of the configuration, so a bad key stops Crier before it touches the database. */
function secretKeyProblem(value: string): string[] {
  try {
    parseSecretKey(value);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/**
 * CRIER_<NETWORK>_CLIENT_ID and _CLIENT_SECRET, for any network that connects through OAuth: both or
 * neither; and CRIER_<NETWORK>_LOGIN_CONFIG_ID where the network's dialog takes a saved configuration.
 */
function managedApps(env: NodeJS.ProcessEnv, networkList: readonly ConfigurableNetwork[], problems: string[]): ManagedApps {
  const apps: ManagedApps = {};
  for (const network of networkList) {
    if (network.connect.kind !== 'oauth') continue;
    const prefix = `CRIER_${network.id.toUpperCase()}_CLIENT`;
    const clientId = env[`${prefix}_ID`]?.trim();
    const clientSecret = env[`${prefix}_SECRET`]?.trim();
    const configVar = `CRIER_${network.id.toUpperCase()}_LOGIN_CONFIG_ID`;
    const loginConfigId = env[configVar]?.trim();
    if (loginConfigId && !network.connect.loginConfiguration) problems.push(`${configVar}: ${network.label}'s login takes no saved configuration`);
    else if (loginConfigId && !LOGIN_CONFIG_ID.test(loginConfigId)) problems.push(`${configVar} must be the configuration's id (digits)`);
    else if (loginConfigId && !clientId) problems.push(`${configVar} needs ${prefix}_ID and ${prefix}_SECRET (the app it belongs to)`);
    if (clientId && clientSecret) apps[network.id] = { clientId, clientSecret, ...(loginConfigId ? { loginConfigId } : {}) };
    else if (clientId || clientSecret) problems.push(`set both ${prefix}_ID and ${prefix}_SECRET (the operator's ${network.label} app), or neither`);
  }
  return apps;
}

/** Every network reads its own variables (its `config`), reporting problems with the rest. */
function networkSettings(env: NodeJS.ProcessEnv, networkList: readonly ConfigurableNetwork[], problems: string[]): Config['networks'] {
  const reader = {
    url: (name: string, fallback: string) => url(env, name, fallback, problems),
    optionalUrl: (name: string) => (env[name]?.trim() ? url(env, name, '', problems) : undefined),
    integer: (name: string, fallback: number, min = 0) => integer(env, name, fallback, min, Number.MAX_SAFE_INTEGER, problems),
    text: (name: string) => env[name]?.trim() || undefined,
  };
  return Object.fromEntries(networkList.map((network) => [network.id, network.config.read(reader)]));
}

const WINDOW_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** CRIER_ACCOUNT_QUOTAS: `off`, or `x=300/3h,linkedin=off` (a window in s, m, h or d). */
function accountQuotaOverrides(env: NodeJS.ProcessEnv, networkIds: readonly string[], problems: string[]): AccountQuotaOverrides {
  const raw = env.CRIER_ACCOUNT_QUOTAS?.trim() ?? '';
  if (raw === 'off') return 'off';
  const overrides: Exclude<AccountQuotaOverrides, 'off'> = {};
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const match = /^([a-z_]+)=(?:(off)|(\d+)\/(\d+)([smhd]))$/.exec(entry);
    const network = match?.[1];
    if (!match || !network || !networkIds.includes(network) || (!match[2] && Number(match[3]) < 1) || (!match[2] && Number(match[4]) < 1)) {
      problems.push(`CRIER_ACCOUNT_QUOTAS must be "off" or a comma-separated list of <network>=<max>/<window> (window like 15m, 24h) or <network>=off; not "${entry}"`);
      continue;
    }
    overrides[network] = match[2] ? 'off' : { max: Number(match[3]), windowMs: Number(match[4]) * WINDOW_UNITS_MS[match[5]!]! };
  }
  return overrides;
}

/** The production schedule is the spec's (30 s timeout, retries 10 s to 5 min); a scale only shrinks it. */
function webhookConfig(env: NodeJS.ProcessEnv, problems: string[]): Config['webhooks'] {
  const raw = env.CRIER_WEBHOOK_TIME_SCALE?.trim();
  const timeScale = raw ? Number(raw) : 1;
  if (!(timeScale > 0 && timeScale <= 1)) problems.push(`CRIER_WEBHOOK_TIME_SCALE must be a number above 0 and at most 1, got "${raw}"`);
  return {
    concurrency: integer(env, 'CRIER_WEBHOOK_CONCURRENCY', 32, 1, 1024, problems),
    timeScale: timeScale > 0 && timeScale <= 1 ? timeScale : 1,
    retentionDays: integer(env, 'CRIER_EVENT_RETENTION_DAYS', 30, 1, 3650, problems),
  };
}

/** CRIER_TRUST_PROXY: false (default), true, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal. */
function trustedProxies(env: NodeJS.ProcessEnv, problems: string[]): Config['trustProxy'] {
  const raw = env.CRIER_TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  const entries = raw.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length) problems.push(`CRIER_TRUST_PROXY must be true, false, or addresses and CIDR ranges (or loopback, linklocal, uniquelocal); not ${wrong.map((w) => `"${w}"`).join(', ')}`);
  return entries;
}

/** CRIER_REDIRECT_ORIGINS: comma-separated http(s) origins (scheme, host and port, no path); unset or empty: undefined. */
function allowedRedirectOrigins(env: NodeJS.ProcessEnv, problems: string[]): string[] | undefined {
  const entries = (env.CRIER_REDIRECT_ORIGINS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  if (!entries.length) return undefined;
  const originOf = (entry: string) => {
    if (!isHttpUrl(entry)) return undefined;
    const url = new URL(entry);
    return url.pathname === '/' && !url.search && !url.hash && !url.username ? url.origin : undefined;
  };
  const origins = entries.map(originOf);
  const wrong = entries.filter((_, index) => origins[index] === undefined);
  if (wrong.length) problems.push(`CRIER_REDIRECT_ORIGINS must be http(s) origins such as https://app.example.com (no path); not ${wrong.map((w) => `"${w}"`).join(', ')}`);
  return origins.filter((origin): origin is string => origin !== undefined);
}

function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  problems.push(`${name} must be true or false, got "${env[name]}"`);
  return fallback;
}

/** Both Stripe secrets or neither: a webhook that cannot be verified must not be half-enabled. */
function stripeConfig(env: NodeJS.ProcessEnv, problems: string[]): Config['stripe'] {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  if (!secretKey && !webhookSecret) return undefined;
  if (!secretKey || !webhookSecret) {
    problems.push('set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to enable Stripe billing, or neither');
    return undefined;
  }
  if (!/^(sk|rk)_/.test(secretKey)) problems.push('STRIPE_SECRET_KEY must be a Stripe secret key (sk_... or rk_...)');
  if (!webhookSecret.startsWith('whsec_')) problems.push("STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_...)");
  return { secretKey, webhookSecret };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string, problems: string[]): string {
  const value = (env[name]?.trim() || fallback).replace(/\/+$/, '');
  if (!isHttpUrl(value)) problems.push(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
