// Graph reads a connect makes: GET /{v}/me (the user, or the Page for a Page token), GET
// /{v}/me/accounts and /{v}/{user-id}/accounts (the Pages the user has a role on, each with a Page
// token, cursor-paginated with paging.next), GET /{v}/{id} (a Page or a linked Instagram account)
// and GET /debug_token. Fields follow `fields=` with expansion; an unknown field is Graph's #100.
import type { Reply } from '../../shared/http.ts';
import { graphError, nonexistingField, unsupportedGet } from '../errors/graph.ts';
import { fieldList, MissingField, parseFields, pick, type FieldTree } from '../validate/fields.ts';
import type { FbPage, FbUser, IgAccount, TokenInfo } from '../state/accounts.ts';
import { authenticate, isReply, type FbRequest, type FbRoute, type FbWorld } from './context.ts';

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 25;
const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
const uncursor = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(Buffer.from(value, 'base64url').toString('utf8'));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

export function graphRoutes(world: FbWorld): FbRoute[] {
  const { store, oauth, clock } = world;

  /** A Page token for this user token: never expiring when the user token is long-lived, else expiring with it. */
  const pageToken = (userToken: string, info: TokenInfo, page: FbPage): string | undefined => {
    const remaining = info.longLived || info.expiresAtMs === null ? null : Math.max(1, Math.floor((info.expiresAtMs - clock.now()) / 1000));
    const issued = oauth.exchangeAccess(userToken, remaining);
    if (issued === 'invalid') return undefined;
    store.record(issued.accessToken, {
      kind: 'page',
      userId: info.userId,
      pageId: page.id,
      clientId: info.clientId,
      longLived: remaining === null,
    });
    return issued.accessToken;
  };

  const renderIg = (ig: IgAccount, fields: FieldTree | null) =>
    pick(fields ?? fieldList('id'), {
      id: () => ig.id,
      username: () => ig.username,
      name: () => ig.name,
      profile_picture_url: () => ig.profilePictureUrl,
      followers_count: () => ig.followersCount,
      follows_count: () => ig.followsCount,
      media_count: () => world.instagram.mediaOf(ig.id, false).length,
    }, 'IGUser');

  const renderPage = (page: FbPage, fields: FieldTree, token?: () => string | undefined) =>
    pick(fields, {
      id: () => page.id,
      name: () => page.name,
      username: () => page.username,
      category: () => page.category,
      link: () => `https://www.facebook.com/${page.username ?? page.id}`,
      tasks: () => (token ? page.tasks : undefined),
      // Graph gives the Page token only to a user with a task on the Page.
      access_token: () => (token && page.tasks.length ? token() : undefined),
      picture: (sub) => ({ data: pick(sub ?? fieldList('height', 'is_silhouette', 'url', 'width'), { height: () => 50, width: () => 50, is_silhouette: () => false, url: () => page.pictureUrl }, 'ProfilePictureSource') }),
      instagram_business_account: (sub) => (page.instagram ? renderIg(page.instagram, sub) : undefined),
      followers_count: () => page.followersCount,
      fan_count: () => page.fanCount,
    }, 'Page');

  const renderUser = (user: FbUser, fields: FieldTree) =>
    pick(fields, {
      id: () => user.id,
      name: () => user.name,
      picture: (sub) => ({ data: pick(sub ?? fieldList('height', 'is_silhouette', 'url', 'width'), { height: () => 50, width: () => 50, is_silhouette: () => true, url: () => `https://scontent.example.fbcdn.net/user/${user.id}.jpg` }, 'ProfilePictureSource') }),
    }, 'User');

  /** Parses `fields`, authenticates, runs the body; a MissingField becomes Graph's #100. */
  const read = (req: FbRequest, defaults: FieldTree, body: (info: TokenInfo, fields: FieldTree, token: string) => Reply): Reply => {
    const info = authenticate(world, req);
    if (isReply(info)) return info;
    const fields = req.query.fields === undefined ? defaults : parseFields(req.query.fields);
    if (!fields) return graphError({ message: `Syntax error in the fields parameter: "${req.query.fields}"`, code: 2500 });
    try {
      return body(info, fields, req.token!);
    } catch (error) {
      if (error instanceof MissingField) return nonexistingField(error.field, error.nodeType);
      throw error;
    }
  };

  const accounts = (req: FbRequest, userId: string | 'me'): Reply =>
    read(req, fieldList('access_token', 'category', 'name', 'id', 'tasks'), (info, fields, token) => {
      if (info.kind === 'page') return nonexistingField('accounts', 'Page');
      if (userId !== 'me' && userId !== info.userId) return unsupportedGet(userId);
      const user = store.users.get(info.userId)!;
      const limit = Math.min(Math.max(Number(req.query.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT, 1), MAX_LIMIT);
      const after = uncursor(req.query.after);
      const start = after === undefined ? 0 : after + 1;
      const pages = user.pageIds.slice(start, start + limit).map((id) => store.pages.get(id)!);
      const data = pages.map((page) => renderPage(page, fields, () => pageToken(token, info, page)));
      if (!data.length) return { status: 200, body: { data } };
      const last = start + data.length - 1;
      const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(last) } };
      if (last + 1 < user.pageIds.length) {
        const next = new URL(`${req.origin}/${req.params.version}/${user.id}/accounts`);
        next.searchParams.set('access_token', token);
        if (req.query.fields !== undefined) next.searchParams.set('fields', req.query.fields);
        next.searchParams.set('limit', String(limit));
        next.searchParams.set('after', cursor(last));
        paging.next = next.toString();
      }
      return { status: 200, body: { data, paging } };
    });

  return [
    {
      method: 'GET',
      url: '/me',
      versioned: true,
      handler: (req) =>
        read(req, fieldList('id', 'name'), (info, fields) => {
          const body = info.kind === 'page' ? renderPage(store.pages.get(info.pageId!)!, fields) : renderUser(store.users.get(info.userId)!, fields);
          return { status: 200, body };
        }),
    },
    { method: 'GET', url: '/me/accounts', versioned: true, handler: (req) => accounts(req, 'me') },
    { method: 'GET', url: '/:id/accounts', versioned: true, handler: (req) => accounts(req, req.params.id!) },
    {
      method: 'GET',
      url: '/:id',
      versioned: true,
      handler: (req) => {
        for (const node of world.nodes) {
          const reply = node(req);
          if (reply) return reply;
        }
        const id = req.params.id!;
        const ig = store.instagram(id);
        return read(req, ig ? fieldList('id') : fieldList('id', 'name'), (info, fields) => {
          const user = store.users.get(info.userId)!;
          const reachable = (page: FbPage) => (info.kind === 'page' ? info.pageId === page.id : user.pageIds.includes(page.id));
          if (ig && reachable(ig.page)) return { status: 200, body: renderIg(ig.account, fields) };
          const page = store.pages.get(id);
          if (page && reachable(page)) return { status: 200, body: renderPage(page, fields) };
          if (info.kind === 'user' && id === user.id) return { status: 200, body: renderUser(user, fields) };
          return unsupportedGet(id);
        });
      },
    },
    ...[true, false].map((versioned): FbRoute => ({
      method: 'GET',
      url: '/debug_token',
      versioned,
      handler: (req) => {
        // The caller authenticates with an app token ("{app-id}|{app-secret}") or a token of the same app.
        const [appId, secret] = (req.token ?? '').split('|');
        const app = secret !== undefined ? oauth.checkClient(appId, secret) : undefined;
        if (!app || app === 'invalid') {
          const caller = authenticate(world, { ...req, query: {} });
          if (isReply(caller)) return caller;
        }
        const input = req.query.input_token;
        if (!input) return graphError({ message: 'The parameter input_token is required', code: 100 });
        const info = store.tokenInfo(input);
        if (!info) return graphError({ message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
        const check = oauth.checkAccess(input);
        return {
          status: 200,
          body: {
            data: {
              app_id: info.clientId,
              type: info.kind === 'page' ? 'PAGE' : 'USER',
              application: 'Emulated app',
              expires_at: info.expiresAtMs === null ? 0 : Math.floor(info.expiresAtMs / 1000),
              is_valid: check.ok,
              issued_at: Math.floor(info.issuedAtMs / 1000),
              scopes: check.ok ? check.scopes : [],
              user_id: info.userId,
              ...(info.pageId ? { profile_id: info.pageId } : {}),
            },
          },
        };
      },
    })),
  ];
}
