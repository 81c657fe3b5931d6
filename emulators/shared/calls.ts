// What an emulator saw: every call it answered (method, path, query, a digest of the body, the status
// it answered), so that a test, or anyone running the sandbox, can check what Crier sent — that a
// Reel's finish call was made, that a thumbnail went with uploadType=media — instead of trusting
// Crier's own account of it.
//
//   GET    /__emulator/calls            { calls: RecordedCall[] }, oldest first
//   GET    /__emulator/calls?since=<n>  only the calls after sequence number n
//   DELETE /__emulator/calls            forgets them (204)
//
// Secrets never enter the record: bodies are kept as a SHA-256 and a length, headers not at all (the
// Authorization scheme only), and query parameters that carry credentials are replaced by
// "[redacted]" (Meta's networks take access_token in the query), as are the tokens a Telegram bot and a
// Discord webhook put in the path.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface RecordedCall {
  /** 1, 2, 3… in the order the emulator answered them. */
  seq: number;
  /** When the answer was sent (ISO 8601). */
  at: string;
  method: string;
  path: string;
  /** Every value of each parameter, repeated ones included, in the order sent. */
  query: Record<string, string[]>;
  /** The Authorization header's scheme: what kind of credential came, never the credential. */
  auth: 'basic' | 'bearer' | 'oauth' | 'other' | 'none';
  contentType: string | null;
  /** SHA-256 (hex) of the raw body; null without one. */
  bodySha256: string | null;
  bodyBytes: number;
  status: number;
}

/** The route's prefix: no network serves a path beginning with a double underscore. */
export const CALLS_ROUTE = '/__emulator/calls';

/** The most calls kept; older ones are dropped first (a long sandbox session stays small). */
const KEPT = 5000;

const SECRET_PARAMETERS = new Set([
  'access_token', 'input_token', 'fb_exchange_token', 'client_secret', 'refresh_token', 'code', 'code_verifier', 'password', 'token',
]);

/** Records every call `app` answers and serves the record on CALLS_ROUTE. */
export function recordCalls(app: FastifyInstance): void {
  let calls: RecordedCall[] = [];
  let seq = 0;
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith(CALLS_ROUTE)) return;
    calls.push(recordOf(request, reply.statusCode, ++seq));
    if (calls.length > KEPT) calls = calls.slice(-KEPT);
  });
  app.get(CALLS_ROUTE, async (request) => {
    const since = Number((request.query as Record<string, unknown>)?.since ?? 0);
    return { calls: Number.isFinite(since) ? calls.filter((c) => c.seq > since) : calls };
  });
  app.delete(CALLS_ROUTE, async (_request, reply) => {
    calls = [];
    return reply.code(204).send();
  });
}

function recordOf(request: FastifyRequest, status: number, seq: number): RecordedCall {
  const url = new URL(request.url, 'http://emulator');
  const query: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (query[name] ??= []).push(SECRET_PARAMETERS.has(name) ? '[redacted]' : value);
  const body = Buffer.isBuffer(request.body) ? request.body : typeof request.body === 'string' ? Buffer.from(request.body) : undefined;
  return {
    seq,
    at: new Date().toISOString(),
    method: request.method,
    // A Telegram bot's token is the path's first segment (/bot<token>/<method>), a Discord webhook's the
    // segment after its id (/api/v10/webhooks/<id>/<token>): kept out like any credential.
    path: url.pathname.replace(/^\/bot[^/]+/, '/bot[redacted]').replace(/^(\/api(?:\/v\d+)?\/webhooks\/\d+\/)[^/]+/, '$1[redacted]'),
    query,
    auth: schemeOf(request.headers.authorization),
    contentType: request.headers['content-type'] ?? null,
    bodySha256: body?.length ? createHash('sha256').update(body).digest('hex') : null,
    bodyBytes: body?.length ?? 0,
    status,
  };
}

function schemeOf(header: string | undefined): RecordedCall['auth'] {
  if (!header) return 'none';
  const scheme = header.split(' ', 1)[0]!.toLowerCase();
  return scheme === 'basic' || scheme === 'bearer' || scheme === 'oauth' ? scheme : 'other';
}
