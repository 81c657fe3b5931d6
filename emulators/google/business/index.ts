// The Business Profile localPosts paths of the Google emulator, mounted on its one app by server.ts:
// POST/GET /v4/accounts/{a}/locations/{l}/localPosts and GET …/localPosts/{id} (local-posts.ts) and the
// Performance API (performance.ts), every call logged in order (every value of its query kept, a repeated one's joined with commas), the shared fault queue honoured (with its delayMs), and the controls tests and the
// sandbox use (`emulator.business`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import { jsonBody, send, type Reply } from '../../shared/http.ts';
import type { FetchMedia } from '../../shared/media-fetch.ts';
import { richError } from '../errors.ts';
import type { GoogleWorld } from '../state/world.ts';
import { allValues, joinedValues } from '../validate/query.ts';
import { performanceRoute } from './performance.ts';
import { businessRoutes, type Handled, type LocationParams } from './local-posts.ts';
import { BusinessState, type BusinessCall, type DailyValue, type LocationState, type Review, type StoredLocalPost } from './state.ts';

export type { BusinessCall, DailyValue, LocationState, Review, StoredLocalPost } from './state.ts';

/** What tests and the sandbox control and inspect of Business on the Google emulator (`emulator.business`). */
export interface BusinessControls {
  /** A location's state ("locations/{id}"); VERIFIED until set. */
  setLocationState(location: string, state: LocationState): void;
  /** The user no longer manages the location (removed from its managers): its calls answer 403. */
  stopManaging(userId: string, location: string): void;
  /** How Google's review of the next created post goes (default: LIVE at once). */
  reviewNext(review: Review): void;
  /** The next create is made, but its answer comes this much later (a worker killed meanwhile never sees it). */
  delayNextCreate(ms: number): void;
  /** A certificate authority Google's photo fetcher trusts (a test's local HTTPS host). */
  trustCa(ca: string): void;
  /** Every post created, oldest first, with the body its create received. */
  posts(): StoredLocalPost[];
  /** A location's ("locations/{id}") values of one Performance API DailyMetric, by day. */
  setDailyMetric(location: string, metric: string, days: DailyValue[]): void;
  /** Every localPosts and Performance API call, in order. */
  calls(): BusinessCall[];
}

const BASE = '/v4/accounts/:accountId/locations/:locationId/localPosts';

export function mountBusiness(app: FastifyInstance, world: GoogleWorld, faults: FaultQueue, fetchMedia?: FetchMedia): BusinessControls {
  const state = new BusinessState(fetchMedia);
  const routes = businessRoutes(world, state);

  const handle = (run: (req: FastifyRequest) => Promise<Handled> | Handled) => async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const call: BusinessCall = { method: req.method, path, query: joinedValues(allValues(req.query)), status: 0, ...(req.method === 'POST' ? { body: jsonBody(req.body) } : {}) };
    state.calls.push(call);
    const fault = faults.take(req.method, path);
    const answer: Handled = fault
      ? { status: fault.status, headers: fault.headers, body: fault.body ?? richError(fault.status, 'The service is currently unavailable.').body, afterMs: fault.delayMs }
      : await run(req);
    call.status = answer.status;
    if (answer.afterMs) await new Promise((resolve) => setTimeout(resolve, answer.afterMs));
    const { afterMs: _afterMs, ...out } = answer;
    return send(reply, out as Reply);
  };

  const auth = (req: FastifyRequest) => req.headers.authorization;
  app.post(BASE, handle((req) => routes.create(auth(req), req.params as LocationParams, req.body)));
  app.get(BASE, handle((req) => routes.list(auth(req), req.params as LocationParams, allValues(req.query))));
  app.get(`${BASE}/:postId`, handle((req) => routes.get(auth(req), req.params as LocationParams & { postId: string })));
  app.delete(`${BASE}/:postId`, handle((req) => routes.remove(auth(req), req.params as LocationParams & { postId: string })));
  // businessprofileperformance.googleapis.com: "locations/{id}:fetchMultiDailyMetricsTimeSeries" (the
  // verb after a colon is matched from the one path segment).
  const performance = performanceRoute(world, state);
  app.get('/v1/locations/:target', handle((req) => performance(auth(req), (req.params as { target: string }).target, allValues(req.query))));

  return {
    setLocationState: (location, locationState) => { state.locationStates.set(location, locationState); },
    stopManaging: (userId, location) => { state.unmanaged.add(`${userId} ${location}`); },
    reviewNext: (review) => { state.nextReview = review; },
    delayNextCreate: (ms) => { state.nextCreateDelayMs = ms; },
    trustCa: (ca) => { state.extraCa.push(ca); },
    posts: () => [...state.posts],
    setDailyMetric: (location, metric, days) => {
      const metrics = state.dailyMetrics.get(location) ?? new Map<string, DailyValue[]>();
      metrics.set(metric, days.map((d) => ({ ...d })));
      state.dailyMetrics.set(location, metrics);
    },
    calls: () => [...state.calls],
  };
}
