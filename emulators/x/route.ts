// What X route modules share: the request view handed to handlers and the emulator state.
import type { Clock } from '../shared/clock.ts';
import type { Reply } from '../shared/http.ts';
import type { FieldVocabulary, VocabularySetting } from './description.ts';
import type { ProcessingState, XMedia, XStore, XUser } from './store.ts';

export interface XRequest {
  user: XUser;
  params: Record<string, string>;
  /** Each query parameter's value (the server refuses a repeated one before the handler runs). */
  query: Record<string, string | undefined>;
  body: unknown;
  contentType: string;
  /** The vocabulary this request speaks: `post` when it names `post.fields` (or only posts are accepted). */
  vocabulary: FieldVocabulary;
}

/** A route behind a user access token. */
export interface XRoute {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** OAuth 2.0 scope the token must carry. */
  scope: string;
  handler(req: XRequest): Reply | Promise<Reply>;
}

/** A token-less route (the OAuth endpoints), which authenticates the client itself. */
export interface XPublicRoute {
  method: 'GET' | 'POST';
  url: string;
  handler(req: { body: unknown; authorization: string | undefined; query: Record<string, string | undefined> }): Reply;
}

/** A developer app registered with addApp(): what the authorize page and the code grant check. */
export interface XApp {
  clientId: string;
  clientSecret: string;
  /** Callback URLs; redirect_uri must be one of them exactly. */
  callbackUrls: string[];
}

/** An authorization code handed out by the consent page: valid 30 s, once. */
export interface XAuthCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
  userId: string;
  scopes: string[];
  issuedAtMs: number;
}

export interface ProcessingSettings {
  checkAfterSecs: number;
  durationMs: number;
  /** When true, media stays `pending` until a test sets its state. */
  manual: boolean;
}

export interface XWorld {
  store: XStore;
  /** Which of X's field vocabularies the query parameters may use (description.ts). */
  fieldVocabulary: VocabularySetting;
  clock: Clock;
  duplicateWindowMs: number;
  processing: ProcessingSettings;
  /** Set by failNextProcessing(): the next finalized video or GIF ends `failed`. */
  failNextProcessing: boolean;
  apps: Map<string, XApp>;
  codes: Map<string, XAuthCode>;
  /** The user who consents on the authorize page (signIn()). */
  signedInUserId: string | undefined;
}

export interface ProcessingInfo {
  state: ProcessingState;
  check_after_secs?: number;
  progress_percent?: number;
}

/** Processing advances with the clock: `pending` for check_after_secs, then `in_progress`, then the outcome. */
export function processingInfo(world: XWorld, media: XMedia): ProcessingInfo | undefined {
  const processing = media.processing;
  if (!processing) return undefined;
  const { checkAfterSecs, durationMs, manual } = world.processing;
  const elapsed = world.clock.now() - processing.startedAtMs;
  let state: ProcessingState;
  if (processing.pinned) state = processing.pinned;
  else if (manual || elapsed < checkAfterSecs * 1000) state = 'pending';
  else if (elapsed < durationMs) state = 'in_progress';
  else state = processing.outcome;
  if (state === 'succeeded' || state === 'failed') return { state, progress_percent: 100 };
  // As in X's finalize example, a pending upload reports only when to ask again.
  if (state === 'pending') return { state, check_after_secs: checkAfterSecs };
  return { state, check_after_secs: checkAfterSecs, progress_percent: Math.min(99, Math.floor((elapsed * 100) / durationMs)) };
}
