// A local Bluesky PDS (XRPC) for tests and `crier start --sandbox`: app-password sessions, blob
// upload, record writes validated against the lexicons, reads, with the reference PDS's error
// bodies and RateLimit-* headers, and the few AppView reads Crier makes through a PDS (an author's
// feed, a thread, posts, a profile), computed from the records it hosts.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue, type FaultSpec } from '../shared/faults.ts';
import { createApp, jsonBody, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { WindowLimiter, type LimitResult } from '../shared/rate.ts';
import { blueskyControls, type BlueskyCall, type BlueskyControls } from './controls.ts';
import { faultBody, internalError, invalidRequest, methodNotImplemented, payloadTooLarge, rateLimitExceeded } from './errors.ts';
import { appViewMethods } from './routes/appview.ts';
import { readMethods } from './routes/read.ts';
import { sessionMethods } from './routes/session.ts';
import { writeMethods } from './routes/write.ts';
import { PdsStore } from './state.ts';
import { TidGenerator } from './tid.ts';
import { BLOB_FIELDS } from './validate/lexicon.ts';
import { authenticate, isReply, type PdsWorld, type RateSpend, type XrpcCall, type XrpcMethod } from './xrpc.ts';

export type { AddAccountInput, AppPassword, StoredRecord } from './state.ts';
export type { BlueskyCall, BlueskyControls } from './controls.ts';
export type { FaultSpec } from '../shared/faults.ts';

export interface BlueskyEmulatorOptions extends ListenOptions {
  /** Handle suffixes describeServer advertises (default [".test"]). */
  handleDomains?: string[];
  /** Largest image blob a post may embed (default the official lexicon's: 2,000,000 bytes since 2026-04-08, 1,000,000 before). */
  imageMaxBytes?: number;
  /** Largest body uploadBlob accepts (default 50 MB, bsky.social's setting). */
  blobUploadLimit?: number;
  /** bsky.social's login and write quotas (default on). */
  rateLimits?: boolean;
  /** Refuse facets whose byte range falls outside the text (default on; the PDS itself accepts them). */
  strictFacets?: boolean;
}

export interface BlueskyEmulator extends BlueskyControls {
  url: string;
  /** Move it forward to expire sessions or reset rate-limit windows. */
  clock: Clock;
  close(): Promise<void>;
}

export async function startBlueskyEmulator(opts: BlueskyEmulatorOptions = {}): Promise<BlueskyEmulator> {
  const clock = new Clock();
  const blobLimit = opts.blobUploadLimit ?? 50 * 1024 * 1024;
  const world: PdsWorld = {
    store: new PdsStore(),
    clock,
    tids: new TidGenerator(),
    secret: randomBytes(32),
    serviceDid: 'did:web:localhost',
    handleDomains: opts.handleDomains ?? ['.test'],
    limits: { imageMaxBytes: opts.imageMaxBytes ?? BLOB_FIELDS.postImage.maxSize, strictFacets: opts.strictFacets ?? true },
    limiter: new WindowLimiter(),
    rateLimits: opts.rateLimits ?? true,
    url: '',
  };
  const methods = new Map<string, XrpcMethod>();
  for (const method of [...sessionMethods(world), ...writeMethods(world, blobLimit), ...readMethods(world), ...appViewMethods(world)]) {
    methods.set(method.nsid, method);
  }
  const faults = new FaultQueue();
  const app = createApp(blobLimit + 1024 * 1024);

  const dispatch = async (req: FastifyRequest): Promise<Reply> => {
    const nsid = (req.params as { nsid: string }).nsid;
    const fault = faults.take(req.method, req.url.split('?')[0]);
    if (fault) return faultReply(fault, clock);
    if (nsid === '_health') return { status: 200, body: { version: 'crier-emulator' } };
    const method = methods.get(nsid);
    if (!method) {
      // Without an AppView configured, the PDS has nowhere to proxy app.bsky.* and chat.bsky.* calls.
      return /^(app|chat)\.bsky\./.test(nsid) ? invalidRequest(`No service configured for ${nsid}`) : methodNotImplemented();
    }
    const expected = method.type === 'query' ? 'GET' : 'POST';
    if (req.method !== expected) return invalidRequest(`Incorrect HTTP method (${req.method}) expected ${expected}`);
    const call: XrpcCall = {
      params: req.query as Record<string, string | undefined>,
      body: req.body,
      contentType: req.headers['content-type'] ?? '',
      auth: null,
    };
    if (method.auth === 'none') return run(world, method.rateLimits?.(call) ?? [], () => method.handler(call));
    const auth = authenticate(world, method.auth, req.headers.authorization);
    if (isReply(auth)) return auth;
    const authed = { ...call, auth };
    return run(world, method.rateLimits?.(authed) ?? [], () => method.handler(authed));
  };

  const calls: BlueskyCall[] = [];
  app.route({
    method: ['GET', 'POST'],
    url: '/xrpc/:nsid',
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const out = await dispatch(req);
      const auth = authenticate(world, 'access', req.headers.authorization);
      calls.push({
        nsid: (req.params as { nsid: string }).nsid,
        method: req.method,
        params: { ...(req.query as Record<string, unknown>) },
        body: (req.headers['content-type'] ?? '').startsWith('application/json') ? jsonBody(req.body) : undefined,
        did: isReply(auth) ? undefined : auth.did,
        status: out.status,
      });
      return send(reply, out);
    },
  });
  app.setNotFoundHandler((_req, reply) => send(reply, { status: 404, body: { error: 'NotFound', message: 'Not Found' } }));
  app.setErrorHandler((error: { statusCode?: number }, _req, reply) => send(reply, error.statusCode === 413 ? payloadTooLarge() : internalError()));

  const server = await listen(app, opts);
  world.url = server.url;
  return { url: server.url, clock, close: () => server.close(), ...blueskyControls(world, calls, faults) };
}

/** Spends rate-limit points, then runs the handler; responses carry the tightest limit's headers. */
async function run(world: PdsWorld, spends: RateSpend[], handler: () => Reply | Promise<Reply>): Promise<Reply> {
  if (!world.rateLimits || spends.length === 0) return handler();
  const results = spends.map((s) => world.limiter.consume(s.key, s.limit, s.windowMs, world.clock.now(), s.points));
  const refused = results.find((r) => !r.ok);
  const tightest = refused ?? results.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  const headers = rateHeaders(tightest);
  if (refused) return { ...rateLimitExceeded(), headers };
  const out = await handler();
  return { ...out, headers: { ...headers, ...out.headers } };
}

function rateHeaders(rate: LimitResult): Record<string, string> {
  return {
    'ratelimit-limit': String(rate.limit),
    'ratelimit-remaining': String(rate.remaining),
    'ratelimit-reset': String(rate.reset),
    'ratelimit-policy': `${rate.limit};w=${rate.windowSecs}`,
  };
}

function faultReply(fault: FaultSpec, clock: Clock): Reply {
  const rate = fault.status === 429
    ? rateHeaders({ ok: false, limit: 30, remaining: 0, reset: clock.nowSecs() + 300, windowSecs: 300 })
    : {};
  return { status: fault.status, body: fault.body ?? faultBody(fault.status), headers: { ...rate, ...fault.headers } };
}
