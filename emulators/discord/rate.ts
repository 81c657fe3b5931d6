// Discord's per-route rate limits (https://discord.com/developers/docs/topics/rate-limits): every
// answer carries X-RateLimit-Limit, -Remaining, -Reset (epoch seconds, with milliseconds), -Reset-After
// (seconds, a float) and -Bucket (an opaque hash naming the bucket); a refused request answers 429
// with `retry_after` and the Retry-After header (whole seconds), and X-RateLimit-Scope. Discord does
// not document a webhook's figures: the emulator's bucket is 5 requests per 2 seconds per route of a webhook, the
// figure Discord's answers show (README: invented).
import { createHash } from 'node:crypto';
import { rateLimited, type Answer } from './errors.ts';
import type { DiscordWorld } from './state.ts';

const bucketHash = (route: string) => createHash('sha256').update(route).digest('hex').slice(0, 32);

/**
 * The 429 to answer instead of the call, or the headers to add to its answer. A bucket is one route
 * (its method and path template) of one webhook, or of one channel for a bot: "rate limits are applied
 * on a per-route basis", the webhook or the channel being the top-level resource of the path. A forced
 * limit (a control) is set on the webhook or the bot (`webhookId`).
 */
export function spend(world: DiscordWorld, webhookId: string, route: string, resource = webhookId): { refused?: Answer; headers: Record<string, string> } {
  const now = world.clock.now();
  const forced = world.forcedLimits.get(webhookId);
  if (forced && forced.skip > 0) forced.skip -= 1;
  else if (forced && forced.calls > 0) {
    forced.calls -= 1;
    return { refused: withHeaders(rateLimited(forced.retryAfter, forced.global), refusalHeaders(`${route}:${resource}`, forced.retryAfter, now, forced.global, world.bucket.limit)), headers: {} };
  }
  const { limit, windowMs } = world.bucket;
  const key = `${route}:${resource}`;
  let window = world.windows.get(key);
  if (!window || now >= window.start + windowMs) world.windows.set(key, window = { start: now, used: 0 });
  const ok = window.used < limit;
  if (ok) window.used += 1;
  const resetAfter = (window.start + windowMs - now) / 1000;
  const headers = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(limit - window.used),
    'x-ratelimit-reset': ((window.start + windowMs) / 1000).toFixed(3),
    'x-ratelimit-reset-after': resetAfter.toFixed(3),
    'x-ratelimit-bucket': bucketHash(route),
  };
  if (ok) return { headers };
  return { refused: withHeaders(rateLimited(Number(resetAfter.toFixed(3)), false), { ...headers, ...refusalHeaders(key, resetAfter, now, false, limit) }), headers: {} };
}

function refusalHeaders(key: string, retryAfter: number, now: number, global: boolean, limit: number): Record<string, string> {
  return {
    'retry-after': String(Math.ceil(retryAfter)),
    'x-ratelimit-scope': global ? 'global' : 'user',
    ...(global ? { 'x-ratelimit-global': 'true' } : {
      'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': (now / 1000 + retryAfter).toFixed(3),
      'x-ratelimit-reset-after': retryAfter.toFixed(3), 'x-ratelimit-bucket': bucketHash(key.slice(0, key.lastIndexOf(':'))),
    }),
  };
}

const withHeaders = (answer: Answer, headers: Record<string, string>): Answer => ({ ...answer, headers: { ...answer.headers, ...headers } });
