// Request limits of API keys, for every /v1 route; runs after authentication (it needs the key) and
// before the subscription gate and the handler.
//
// - A key with a fixed quota counts each request against it in PostgreSQL (atomic, shared by every
//   API process); when used up every request answers 429 "API key request quota exhausted", without
//   Retry-After since waiting does not help. Its headers show the quota: X-RateLimit-Limit = quota,
//   X-RateLimit-Remaining = what is left, and no X-RateLimit-Reset (a quota never resets; a 0 would
//   read as "already reset" to a client that retries at the reset time).
// - Any other key is limited per fixed window (rate-limiter-flexible: the window starts at the key's
//   first request and lasts CRIER_RATE_LIMIT_WINDOW_SECONDS). Counters live in process memory, or in
//   Redis when REDIS_URL is set so that every API process counts against one limit. The limit is the
//   key's operator override (api_keys.rate_limit, read with the key on every request) or the
//   organization's computed limit (window-limit.ts, cached per org for a minute). Counters hold
//   requests, not limits, so a changed limit applies to the very next request of the window.
//
// CRIER_RATE_LIMIT_ENABLED=false turns window limits off; fixed quotas are a contract of the key, not
// load protection, and stay enforced.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createOrgLimits, type OrgLimits } from './window-limit.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { lazy } from '../lazy.ts';
import { touchApiKey, type KeyOwner } from '../orgs/api-keys.ts';
import { consumeQuota } from './quotas.ts';

/** How long an org's computed limit is reused before it is computed again. */
const ORG_LIMIT_TTL_MS = 60_000;
/** last_used_at is written at most this often per key and process (a write per request is waste). */
const TOUCH_INTERVAL_MS = 60_000;
/** How long start-up waits for Redis before counting in memory until it is reachable. */
const REDIS_CONNECT_TIMEOUT_MS = 3_000;

export function installRateLimit(app: FastifyInstance, ctx: { db: Db; config: Pick<Config, 'rateLimit'> }, counters: CounterStore): void {
  const settings = ctx.config.rateLimit;
  const windows = settings.enabled ? windowCounter(counters.limiter('', Number.MAX_SAFE_INTEGER, settings.windowSeconds)) : undefined;
  const orgLimits = createOrgLimits(ctx.db, settings, ORG_LIMIT_TTL_MS);
  const touch = throttledTouch(ctx.db);
  app.addHook('onRequest', async (request, reply) => {
    const owner = request.owner as KeyOwner | undefined;
    if (!owner) return; // CORS preflight: no key, nothing to count
    if (owner.fixedQuota !== null) {
      // A key of an inactive organization gets a 402 next: it is served nothing, so its quota is shown, not spent.
      if (owner.subscriptionStatus !== 'active') return quotaHeaders(reply, owner.fixedQuota, owner.quotaUsed);
      return enforceQuota(ctx.db, owner, reply);
    }
    await touch(owner.keyId);
    if (windows) return enforceWindow(windows, owner, orgLimits, settings.windowSeconds, reply);
  });
}

// ---- fixed quotas -------------------------------------------------------------------------------

async function enforceQuota(db: Db, owner: KeyOwner, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const use = await consumeQuota(db, owner.keyId);
  const quota = use?.quota ?? owner.fixedQuota!;
  quotaHeaders(reply, quota, use ? use.used : quota);
  if (use) return undefined;
  return reply.status(429).send({
    success: false,
    error: 'API key request quota exhausted',
    details: `This key's fixed quota of ${quota} requests is used up. Waiting does not restore it: use another key, or ask for a new one.`,
  });
}

function quotaHeaders(reply: FastifyReply, quota: number, used: number): void {
  reply.header('x-ratelimit-limit', quota).header('x-ratelimit-remaining', Math.max(quota - used, 0));
}

// ---- fixed windows ------------------------------------------------------------------------------

async function enforceWindow(windows: WindowCounter, owner: KeyOwner, orgLimits: OrgLimits, windowSeconds: number, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const [limit, count] = await Promise.all([owner.rateLimit ?? orgLimits.get(owner.orgId), windows.hit(owner.keyId)]);
  const msLeft = Math.min(Math.max(count.msBeforeReset, 0), windowSeconds * 1000);
  const resetAt = Math.ceil((Date.now() + msLeft) / 1000);
  reply
    .header('x-ratelimit-limit', limit)
    .header('x-ratelimit-remaining', Math.max(limit - count.consumed, 0))
    .header('x-ratelimit-reset', resetAt);
  if (count.consumed <= limit) return undefined;
  const retryAfter = Math.max(1, Math.ceil(msLeft / 1000));
  return reply.status(429).header('retry-after', retryAfter).send({
    success: false,
    error: 'API key rate limit exceeded',
    details: `This key may make ${limit} requests per ${windowSeconds} s and has used them all; retry in ${retryAfter} s (at ${new Date(resetAt * 1000).toISOString()}).`,
  });
}

interface WindowCount {
  /** Requests of the key in its current window, this one included (refused ones count too). */
  consumed: number;
  msBeforeReset: number;
}

interface WindowCounter {
  hit(keyId: number): Promise<WindowCount>;
}

/**
 * The counter never refuses by itself (its points are unbounded): limits are dynamic per org and per
 * key, so the hook compares the count with the limit of the moment. One counter per key id.
 */
function windowCounter(limiter: RateLimiterAbstract): WindowCounter {
  return {
    async hit(keyId) {
      const res = await limiter.consume(String(keyId));
      return { consumed: res.consumedPoints, msBeforeReset: res.msBeforeNext };
    },
  };
}

// ---- where counters live ------------------------------------------------------------------------

/** Counters in this process's memory, or in Redis (REDIS_URL) so that every API process shares them. */
export interface CounterStore {
  /** Fixed windows of `duration` seconds allowing `points`; `name` keeps these counters apart from others in Redis. */
  limiter(name: string, points: number, duration: number): RateLimiterAbstract;
  close(): Promise<void>;
}

export async function createCounterStore(config: Config, app: FastifyInstance): Promise<CounterStore> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app) : undefined;
  return {
    limiter(name, points, duration) {
      // Memory: this process's counters; also what Redis falls back to while it is unreachable, so an
      // outage loosens a limit to per-process instead of failing every request.
      const memory = new RateLimiterMemory({ points, duration, keyPrefix: name || 'key' });
      if (!redis) return memory;
      const keyPrefix = name ? `${config.rateLimit.redisPrefix}:${name}` : config.rateLimit.redisPrefix;
      return new RateLimiterRedis({ points, duration, storeClient: redis, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory });
    },
    async close() {
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}

/** The Redis client loads only where REDIS_URL is set (lazy.ts). */
const ioredis = lazy('ioredis (the Redis client of REDIS_URL)', () => import('ioredis'));

async function connectRedis(url: string, app: FastifyInstance): Promise<Redis> {
  const { Redis } = await ioredis();
  // No offline queue: while Redis is down a counter call fails at once (and the memory insurance
  // counts) instead of queueing behind a reconnect and stalling requests.
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, connectTimeout: REDIS_CONNECT_TIMEOUT_MS });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) app.log.warn({ err: error }, 'Redis for request counters is unreachable; counting per process until it is back');
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) app.log.info('Redis for request counters is reachable again');
    reported = false;
  });
  await redis.connect().catch(() => {}); // reported by the error listener; ioredis keeps retrying
  return redis;
}

// ---- last use -----------------------------------------------------------------------------------

function throttledTouch(db: Db): (keyId: number) => Promise<void> {
  const touchedAt = new Map<number, number>();
  return async (keyId) => {
    const now = Date.now();
    if (now - (touchedAt.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    touchedAt.set(keyId, now);
    await touchApiKey(db, keyId);
  };
}
