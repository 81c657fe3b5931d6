// A local Facebook (www.facebook.com login dialog + graph.facebook.com) for tests and
// `crier start --sandbox`, serving both the facebook and the instagram networks (Instagram API with
// Facebook Login: the same app, dialog, token endpoint and /me/accounts, where each Page may carry
// its linked instagram_business_account). Every path is versioned (/v23.0/...) as on Graph.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue, type FaultSpec } from '../shared/faults.ts';
import { createApp, firstValues, listen, rawBody, send, type ListenOptions, type Reply } from '../shared/http.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';
import { oauthControls, OAuthServer, tokenCallsOf, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { graphError, serviceUnavailable, unknownPath } from './errors/graph.ts';
import { createByteDownloader, createDownloader } from './download.ts';
import { pageControls, type PageControls } from './controls/pages.ts';
import { pageContext } from './routes/page-context.ts';
import { PagesStore } from './state/pages.ts';
import { pageVideoRoutes } from './routes/page-videos.ts';
import { pagePostRoutes } from './routes/page-posts.ts';
import { instagramControls, type InstagramControls } from './controls/instagram.ts';
import { InstagramStore } from './state/instagram.ts';
import { engagementRoutes } from './routes/engagement.ts';
import { graphRoutes } from './routes/graph.ts';
import { instagramEngagementRoutes } from './routes/instagram-engagement.ts';
import { pageEngagementRoutes } from './routes/page-engagement.ts';
import { instagramMediaRoutes } from './routes/instagram-media.ts';
import { instagramMessagingRoutes } from './routes/instagram-messaging.ts';
import { InstagramMessaging } from './state/messaging.ts';
import { instagramMessagingControls, pushingComments, type InstagramMessagingControls } from './controls/messaging.ts';
import { WebhookSender } from './webhooks.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { FacebookStore, type AddPageInput, type AddUserInput, type FbPage, type FbUser, type TokenInfo } from './state/accounts.ts';
import type { FbRequest, FbRoute, FbWorld } from './routes/context.ts';

export type { AddPageInput, AddUserInput, FbPage, FbUser, IgAccount, TokenInfo } from './state/accounts.ts';

const VERSION = /^v\d+\.\d+$/;

export interface FacebookEmulatorOptions extends ListenOptions {
  /** Short-lived user token lifetime (default 1 h). */
  shortLivedSecs?: number;
  /** Long-lived user token lifetime (default 60 days). */
  longLivedSecs?: number;
  /** Authorization code lifetime (default 10 min). */
  codeSecs?: number;
  /** Certificates to trust when downloading media URLs (tests' self-signed HTTPS hosts). */
  mediaCa?: string[];
  /** How media URLs are downloaded instead of the emulator's own fetch (shared/media-fetch.ts): the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
}

/**
 * The common controls (an app with its Valid OAuth Redirect URIs; revokeUser: every user and Page
 * token answers 190/458; omitNextRefreshToken: no effect, Meta has no refresh grant) and these.
 */
export interface FacebookEmulator extends OAuthEmulatorControls {
  /** A user; by default with one Page that has a linked Instagram account. */
  addUser(input?: AddUserInput): FbUser;
  addPage(userId: string, input?: AddPageInput): FbPage;
  /** While on, the user declines on the dialog (redirect with error=access_denied&error_reason=user_denied). */
  declineConsent(decline?: boolean): void;
  /** A Facebook Login for Business configuration of app `clientId` granting `scopes` (the App Dashboard's Configurations). */
  addLoginConfiguration(input: { id: string; clientId: string; scopes: string[] }): void;
  /** Every token-endpoint grant in order (authorization_code, fb_exchange_token), or those of one grant. */
  tokenCalls(grant?: string): { grant: string; clientId: string; at: number }[];
  /** What an issued token stands for (user or Page, expiry). */
  tokenInfo(token: string): TokenInfo | undefined;
  /** A never-expiring Page token (as taken from a long-lived user token) with these scopes. */
  issuePageToken(pageId: string, clientId: string, scopes: readonly string[]): string;
  /** Trust this certificate when downloading media (a test's HTTPS host started after the emulator). */
  trustMediaCa(pem: string): void;
  /** Page publishing: what was received, and the switches (controls/pages.ts). */
  pages: PageControls;
  /** Instagram publishing: what was received, and the switches (controls/instagram.ts). */
  instagram: InstagramControls;
  /** Instagram direct messages, and the signed webhooks sent as people comment and write (controls/messaging.ts, webhooks.ts). */
  instagramMessaging: InstagramMessagingControls;
}

export async function startFacebookEmulator(opts: FacebookEmulatorOptions = {}): Promise<FacebookEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: opts.shortLivedSecs ?? 3600, refreshSecs: null, rotateRefresh: false, codeSecs: opts.codeSecs ?? 600 }, 'EAAB');
  const store = new FacebookStore(oauth);
  const instagram = new InstagramStore(clock);
  const trusted = [...(opts.mediaCa ?? [])];
  const pages = new PagesStore();
  const world: FbWorld = {
    store, oauth, clock, decline: false, loginConfigurations: new Map(), longLivedSecs: opts.longLivedSecs ?? 60 * 24 * 3600,
    instagram, download: createDownloader(trusted, opts.fetchMedia), nodes: [], commentEdges: [], deleters: [], insightEdges: [],
    downloadBytes: createByteDownloader(trusted, opts.fetchMedia),
  };
  const messaging = new InstagramMessaging(clock);
  const webhooks = new WebhookSender(messaging);
  const faults = new FaultQueue();
  const pageCtx = pageContext(world, pages);
  // Page photos arrive as multipart bytes (Meta takes photos up to 10 MB).
  const app = createApp(12 * 1024 * 1024);

  const register = (route: FbRoute) => {
    app.route({
      method: route.method,
      url: route.versioned ? `/:version${route.url}` : route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const path = req.url.split('?')[0]!;
        const params = req.params as Record<string, string>;
        if (route.versioned && !VERSION.test(params.version ?? '')) return send(reply, unknownPath(path));
        if (route.url !== '/dialog/oauth') {
          const fault = faults.take(req.method, path);
          if (fault) {
            // A slow or hanging answer (a test kills the caller while it waits).
            if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
            return send(reply, faultReply(fault));
          }
        }
        const query = firstValues(req.query);
        if (req.method === 'POST') mergeBody(query, req.headers['content-type'] ?? '', rawBody(req.body));
        const header = /^(?:OAuth|Bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
        const fbReq: FbRequest = {
          method: req.method,
          params,
          query,
          token: query.access_token ?? header?.[1] ?? null,
          origin: `${req.protocol}://${req.headers.host}`,
          raw: rawBody(req.body),
          headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value])),
          ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
        };
        return send(reply, await route.handler(fbReq));
      },
    });
  };
  for (const route of [...oauthRoutes(world), ...instagramMediaRoutes(world), ...instagramMessagingRoutes(world, messaging, webhooks), ...pagePostRoutes(world, pages, pageCtx), ...pageVideoRoutes(world, pages, pageCtx), ...graphRoutes(world)]) register(route);
  // Engagement: comments and answers, own posts, deletes, insights (page-engagement.ts, instagram-engagement.ts).
  for (const route of [...pageEngagementRoutes(world, pages, pageCtx), ...instagramEngagementRoutes(world), ...engagementRoutes(world)]) register(route);
  app.setNotFoundHandler((req, reply) => send(reply, unknownPath(req.url.split('?')[0]!)));
  app.setErrorHandler((_error, _req, reply) => send(reply, serviceUnavailable(500)));

  const server = await listen(app, opts);
  return {
    ...oauthControls(oauth, server, faults),
    addUser: (input) => store.addUser(input),
    addPage: (userId, input) => store.addPage(userId, input),
    addLoginConfiguration: ({ id, clientId, scopes }) => {
      world.loginConfigurations.set(id, { clientId, scopes: [...scopes] });
    },
    declineConsent: (decline = true) => {
      world.decline = decline;
    },
    tokenCalls: tokenCallsOf(oauth),
    tokenInfo: (token) => store.tokenInfo(token),
    issuePageToken: (pageId, clientId, scopes) => {
      const userId = [...store.users.values()].find((u) => u.pageIds.includes(pageId))?.id;
      if (!userId) throw new Error(`no user manages page ${pageId}`);
      const { accessToken } = oauth.issue(userId, clientId, [...scopes], false, null);
      store.record(accessToken, { kind: 'page', userId, pageId, clientId, longLived: true });
      return accessToken;
    },
    instagram: pushingComments(instagramControls(instagram, store), messaging, webhooks, (mediaId) => instagram.media.get(mediaId)?.igUserId),
    instagramMessaging: instagramMessagingControls(messaging, webhooks, (igUserId) => store.instagram(igUserId)?.account.username ?? igUserId),
    pages: pageControls(pages, clock, store),
    trustMediaCa: (pem) => {
      trusted.push(pem);
    },
  };
}

function faultReply(fault: FaultSpec): Reply {
  const base: Reply = fault.status >= 500
    ? serviceUnavailable(fault.status)
    : fault.status === 429
      ? graphError({ message: '(#4) Application request limit reached', code: 4, status: 400 })
      : graphError({ message: 'An unknown error has occurred.', code: 1, status: fault.status });
  return { status: fault.status, body: fault.body ?? base.body, headers: { ...base.headers, ...fault.headers } };
}

/**
 * A POST's parameters join the query's: a form body's values, or a JSON object's (Graph takes both;
 * Meta's Business SDK posts JSON), nested values as the JSON Graph reads them. Multipart bodies are
 * read by their routes.
 */
function mergeBody(query: Record<string, string | undefined>, contentType: string, raw: Buffer): void {
  if (/^multipart\//i.test(contentType)) return;
  if (/json/i.test(contentType)) {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    for (const [name, value] of Object.entries(body)) {
      if (value !== undefined && value !== null) query[name] ??= typeof value === 'string' ? value : JSON.stringify(value);
    }
    return;
  }
  for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) query[name] ??= value;
}
