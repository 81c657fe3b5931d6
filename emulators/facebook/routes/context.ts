// What the Facebook emulator's route modules share: the state, the request view, and the token
// check every Graph read starts with.
import { createHmac } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import type { Reply } from '../../shared/http.ts';
import type { OAuthServer } from '../../shared/oauth.ts';
import { appNotAuthorized, badAppSecretProof, cannotParseToken, expiredToken, noActiveToken } from '../errors/graph.ts';
import type { Downloader } from '../download.ts';
import type { InstagramStore } from '../state/instagram.ts';
import type { FacebookStore, TokenInfo } from '../state/accounts.ts';

export interface FbWorld {
  store: FacebookStore;
  oauth: OAuthServer;
  clock: Clock;
  /** The user declines on the login dialog (error=access_denied&error_reason=user_denied). */
  decline: boolean;
  /**
   * Facebook Login for Business configurations, by id: the app they belong to and the permissions
   * they grant. A dialog with `config_id` grants the configuration's permissions, whatever `scope` says.
   */
  loginConfigurations: Map<string, { clientId: string; scopes: string[] }>;
  /** Lifetime of the long-lived user token of the fb_exchange_token grant (about 60 days). */
  longLivedSecs: number;
  /** Instagram containers, media and comments (state/instagram.ts). */
  instagram: InstagramStore;
  /** Fetches a media URL a container names, as Meta does. */
  download: Downloader;
  /** Readers of GET /{id} for nodes other route modules own (containers, media); undefined: not theirs. */
  nodes: ((req: FbRequest) => Reply | undefined)[];
  /** Handlers of /{id}/comments for objects other than Instagram media (Page posts); undefined: not theirs. */
  commentEdges: ((req: FbRequest, write: boolean) => Promise<Reply> | undefined)[];
  /** Handlers of DELETE /{id} (Page posts, Instagram media); undefined: not theirs. */
  deleters: ((req: FbRequest) => Reply | Promise<Reply> | undefined)[];
  /** Handlers of GET /{id}/insights (Pages, Page posts, Instagram users and media); undefined: not theirs. */
  insightEdges: ((req: FbRequest) => Reply | undefined)[];
  /** A URL's bytes (a photo posted by `url`), or undefined when it cannot be fetched. */
  downloadBytes(url: string): Promise<Buffer | undefined>;
}

export interface FbRequest {
  method: string;
  params: Record<string, string>;
  /** Query parameters, merged with a form body for POST. */
  query: Record<string, string | undefined>;
  /** access_token parameter or `Authorization: OAuth|Bearer <token>`. */
  token: string | null;
  /** The origin the client reached (for paging.next). */
  origin: string;
  /** The raw body and its type (multipart uploads). */
  raw?: Buffer;
  contentType?: string;
  /** Request headers, lower-case (rupload's offset and file_size). */
  headers?: Record<string, string | undefined>;
}

export interface FbRoute {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** Graph routes are versioned: /v23.0/... */
  versioned: boolean;
  handler(req: FbRequest): Reply | Promise<Reply>;
}

/** The token's record, or the Graph error a request with it gets (190 with Meta's subcodes). */
export function authenticate(world: FbWorld, req: FbRequest): TokenInfo | Reply {
  if (!req.token) return noActiveToken();
  const info = world.store.tokenInfo(req.token);
  const check = world.oauth.checkAccess(req.token);
  if (!info) return cannotParseToken();
  if (!check.ok) {
    if (check.reason === 'expired') return expiredToken(check.expiresAtMs ?? world.clock.now(), world.clock.now());
    if (check.reason === 'revoked') return appNotAuthorized(info.clientId);
    return cannotParseToken();
  }
  // appsecret_proof, when sent (or required by the app), is HMAC-SHA256(token) keyed by the app secret.
  const proof = req.query.appsecret_proof;
  if (proof !== undefined) {
    const app = world.oauth.apps.get(info.clientId);
    const expected = app ? createHmac('sha256', app.clientSecret).update(req.token).digest('hex') : '';
    if (proof !== expected) return badAppSecretProof();
  }
  return info;
}

export const isReply = (value: TokenInfo | Reply): value is Reply => 'status' in value;
