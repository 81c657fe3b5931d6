// What the Business Profile localPosts side of the Google emulator keeps, apart from the shared store:
// each location's state (keyed by its name, "locations/{id}"), who stopped managing which location,
// the posts created (with the body each create received) and every call in order.
import { createHash } from 'node:crypto';
import type { FetchMedia } from '../../shared/media-fetch.ts';

/**
 * A location as localPosts sees it. Only a verified location may post; Google answers the others
 * FAILED_PRECONDITION (README: the exact reasons are not confirmed).
 */
export type LocationState = 'VERIFIED' | 'UNVERIFIED' | 'SUSPENDED';

/** How Google's review of the next post goes: PROCESSING for `reads` reads of it, then the verdict. */
export interface Review {
  reads: number;
  verdict: 'LIVE' | 'REJECTED';
}

export interface StoredLocalPost {
  /** "accounts/{a}/locations/{l}/localPosts/{id}" */
  name: string;
  /** "accounts/{a}/locations/{l}" */
  parent: string;
  /** The create's body as received. */
  received: Record<string, unknown>;
  /** The LocalPost as Google answers it (output-only fields included). */
  post: Record<string, unknown>;
  /** PROCESSING reads left before the verdict. */
  readsLeft: number;
  verdict: 'LIVE' | 'REJECTED';
  /** Deleted (localPosts.delete): no longer listed or read, kept for inspection. */
  deleted?: boolean;
}

/** One day's value of a Performance API DailyMetric at a location. */
export interface DailyValue {
  /** YYYY-MM-DD */
  date: string;
  value: number;
}

export interface BusinessCall {
  method: string;
  path: string;
  /** Each query parameter as sent; a repeated one's values joined with commas, in order. */
  query: Record<string, string | undefined>;
  status: number;
  /** The JSON body of a create, as received. */
  body?: unknown;
}

export class BusinessState {
  readonly locationStates = new Map<string, LocationState>();
  /** "userId locations/{id}": the user no longer manages that location. */
  readonly unmanaged = new Set<string>();
  readonly posts: StoredLocalPost[] = [];
  readonly calls: BusinessCall[] = [];
  readonly extraCa: string[] = [];
  /** The fetch photos are downloaded with, when the emulator was given one (shared/media-fetch.ts). */
  readonly fetchMedia: FetchMedia | undefined;
  /** "locations/{id}" → DailyMetric name → its days (fetchMultiDailyMetricsTimeSeries). */
  readonly dailyMetrics = new Map<string, Map<string, DailyValue[]>>();
  nextReview: Review | undefined;
  nextCreateDelayMs = 0;
  #counter = 0;

  constructor(fetchMedia?: FetchMedia) {
    this.fetchMedia = fetchMedia;
  }

  stateOf(location: string): LocationState {
    return this.locationStates.get(location) ?? 'VERIFIED';
  }

  manages(userId: string, location: string): boolean {
    return !this.unmanaged.has(`${userId} ${location}`);
  }

  /** A post id like Google's (a long decimal number). */
  newPostId(): string {
    this.#counter += 1;
    return (1_000_000_000_000_000_000n + BigInt(this.#counter) * 104_729n).toString();
  }
}

/** A stable Maps place id for a location (searchUrl carries it). */
export function placeIdOf(location: string): string {
  return `ChIJ${createHash('sha256').update(location).digest('base64url').slice(0, 23)}`;
}
