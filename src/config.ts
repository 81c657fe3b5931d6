// Environment -> typed configuration, validated once at start with messages that say what to fix.
import path from 'node:path';

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
  databasePoolSize: number;
  /** Where each network's API is; tests and the sandbox point these at the emulators. */
  networks: { xApiUrl: string; blueskyService: string };
  publishing: {
    /** Jobs one worker process runs at once. */
    concurrency: number;
    /** Attempts per destination before a retryable error becomes a failure. */
    maxAttempts: number;
    retryBaseMs: number;
    /** A worker that stops sending heartbeats (killed) loses its job to another after this. */
    heartbeatSeconds: number;
    /** How often a worker looks for jobs whose worker died. */
    superviseIntervalSeconds: number;
  };
  /** The SSRF guard lets loopback through: tests only (CRIER_ALLOW_LOOPBACK_FETCH=true). */
  allowLoopbackFetch: boolean;
  /** Extra CA certificate (PEM file) trusted for guarded fetches, e.g. a test server's. */
  extraCaFile: string | undefined;
}

export class ConfigError extends Error {}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
  const billingUrl = env.CRIER_BILLING_URL?.trim() || `${publicBaseUrl}/billing`;
  if (!isHttpUrl(billingUrl)) problems.push('CRIER_BILLING_URL must be an http(s) URL');
  const bodyLimit = integer(env, 'CRIER_BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576, problems);
  const databasePoolSize = integer(env, 'DATABASE_POOL_SIZE', 20, 1, 500, problems);
  const networks = {
    xApiUrl: url(env, 'CRIER_X_API_URL', 'https://api.x.com', problems),
    blueskyService: url(env, 'CRIER_BLUESKY_SERVICE', 'https://bsky.social', problems),
  };
  const publishing = {
    concurrency: integer(env, 'CRIER_PUBLISH_CONCURRENCY', 8, 1, 256, problems),
    maxAttempts: integer(env, 'CRIER_PUBLISH_MAX_ATTEMPTS', 5, 1, 50, problems),
    retryBaseMs: integer(env, 'CRIER_PUBLISH_RETRY_BASE_MS', 10_000, 10, 3_600_000, problems),
    heartbeatSeconds: integer(env, 'CRIER_PUBLISH_HEARTBEAT_SECONDS', 30, 10, 3600, problems),
    superviseIntervalSeconds: integer(env, 'CRIER_SUPERVISE_INTERVAL_SECONDS', 10, 1, 3600, problems),
  };
  const allowLoopbackFetch = env.CRIER_ALLOW_LOOPBACK_FETCH === 'true';
  const extraCaFile = env.CRIER_EXTRA_CA_FILE?.trim() || undefined;
  if (problems.length) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    port, host, databaseUrl, dataDir, publicBaseUrl, logLevel, secretKey, billingUrl, bodyLimit, databasePoolSize,
    networks, publishing, allowLoopbackFetch, extraCaFile,
  };
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
