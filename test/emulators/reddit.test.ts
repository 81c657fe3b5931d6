// The Reddit emulator's OAuth contract over real HTTP: the authorize page's 400s, the token
// endpoint's answers as Reddit gives them (HTTP 200 {"error":"invalid_grant"} for a bad code, 400
// {"error":400} for a bad refresh token, 401 for bad client credentials), permanent vs temporary
// grants, non-rotating refresh tokens, GET /api/v1/me with its 401 and escaping, and 429 for
// generic User-Agents.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRedditEmulator, type RedditEmulator } from '../../emulators/index.ts';

const APP = { clientId: 'reddit-client', clientSecret: 'reddit-secret' };
const REDIRECT = 'https://crier.example/oauth/callback/reddit';
const UA = 'web:reddit-client:crier-tests/1.0 (by /u/crier_dev)';
let reddit: RedditEmulator;

before(async () => {
  reddit = await startRedditEmulator();
  reddit.addApp({ ...APP, redirectUris: [REDIRECT] });
});
after(() => reddit.close());

function authorizeUrl(params: Record<string, string> = {}): string {
  const url = new URL(`${reddit.url}/api/v1/authorize`);
  url.search = new URLSearchParams({ client_id: APP.clientId, response_type: 'code', state: 'st', redirect_uri: REDIRECT, duration: 'permanent', scope: 'identity submit', ...params }).toString();
  return url.toString();
}

async function consent(params: Record<string, string> = {}): Promise<URL> {
  const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
  assert.equal(res.status, 302, await res.clone().text());
  return new URL(res.headers.get('location')!);
}

async function token(form: Record<string, string>, opts: { auth?: string | null; ua?: string } = {}) {
  const auth = opts.auth === undefined ? `${APP.clientId}:${APP.clientSecret}` : opts.auth;
  const res = await fetch(`${reddit.url}/api/v1/access_token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': opts.ua ?? UA,
      ...(auth ? { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function me(accessToken: string | undefined, opts: { ua?: string; raw?: boolean } = {}) {
  const res = await fetch(`${reddit.url}/api/v1/me${opts.raw ? '?raw_json=1' : ''}`, {
    headers: { 'user-agent': opts.ua ?? UA, ...(accessToken ? { authorization: `bearer ${accessToken}` } : {}) },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function grant(params: Record<string, string> = {}) {
  const user = reddit.addUser({});
  reddit.signIn(user.id);
  const code = (await consent(params)).searchParams.get('code')!;
  const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { user, code, body: res.body };
}

describe('the Reddit authorize page', () => {
  test('problems with the request are a 400 page, never a redirect', async () => {
    reddit.signIn(reddit.addUser({}).id);
    const cases: Record<string, string>[] = [{ client_id: 'nope' }, { redirect_uri: 'https://evil.example/cb' }, { response_type: 'tokenize' }, { scope: 'identity telepathy' }, { state: '' }, { duration: 'forever' }];
    for (const params of cases) {
      const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.headers.get('location'), null);
    }
  });

  test('a declining user goes back with error=access_denied and the state', async () => {
    reddit.signIn(undefined);
    const back = await consent();
    assert.deepEqual([back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('code')], ['access_denied', 'st', null]);
  });

  test('scopes may be separated by spaces or commas; the page is not User-Agent checked (a browser opens it)', async () => {
    reddit.signIn(reddit.addUser({}).id);
    const res = await fetch(authorizeUrl({ scope: 'identity,submit,read' }), { redirect: 'manual', headers: { 'user-agent': 'node' } });
    assert.equal(res.status, 302);
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    assert.equal((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).body.scope, 'identity submit read');
  });
});

describe('the Reddit token endpoint', () => {
  test('duration=permanent: access token for an hour plus a refresh token; temporary: no refresh token', async () => {
    const { body } = await grant();
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.expires_in, 3600);
    const temporary = await grant({ duration: 'temporary' });
    assert.equal(temporary.body.refresh_token, undefined);
    assert.ok(temporary.body.access_token);
  });

  test('a reused or unknown code, or another redirect_uri: HTTP 200 {"error":"invalid_grant"}', async () => {
    const { code } = await grant();
    assert.deepEqual(await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).then((r) => [r.status, r.body]), [200, { error: 'invalid_grant' }]);
    assert.deepEqual((await token({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: REDIRECT })).body, { error: 'invalid_grant' });
    reddit.signIn(reddit.addUser({}).id);
    const fresh = (await consent()).searchParams.get('code')!;
    assert.deepEqual((await token({ grant_type: 'authorization_code', code: fresh, redirect_uri: `${REDIRECT}/other` })).body, { error: 'invalid_grant' });
    assert.deepEqual((await token({ grant_type: 'authorization_code', code: 'x' })).body, { error: 'invalid_request' });
    assert.deepEqual((await token({ grant_type: 'implicit' })).body, { error: 'unsupported_grant_type' });
  });

  test('wrong or missing client credentials: 401 {"message":"Unauthorized","error":401}', async () => {
    for (const auth of [`${APP.clientId}:wrong`, 'unknown:x', null]) {
      const res = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { auth });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'Unauthorized', error: 401 });
      assert.equal(res.headers.get('www-authenticate'), 'Basic realm="reddit"');
    }
  });

  test('a generic User-Agent is throttled: 429 {"message":"Too Many Requests","error":429}', async () => {
    for (const ua of ['node', 'undici', 'python-requests/2.31', 'node-fetch/1.0', ' ']) {
      const res = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { ua });
      assert.equal(res.status, 429, ua);
      assert.deepEqual(res.body, { message: 'Too Many Requests', error: 429 });
    }
    assert.equal(reddit.requests().at(-1)!.userAgent.trim(), '');
  });

  test('refresh: a new access token, no refresh token in the answer, and the old refresh token keeps working', async () => {
    const { body } = await grant();
    const first = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.notEqual(first.body.access_token, body.access_token);
    assert.equal((await me(first.body.access_token)).status, 200);
    const second = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
    assert.equal(second.status, 200);
  });

  test('an unknown or revoked refresh token: HTTP 400 {"error":400}', async () => {
    assert.deepEqual(await token({ grant_type: 'refresh_token', refresh_token: 'made-up' }).then((r) => [r.status, r.body]), [400, { error: 400 }]);
    const { body } = await grant();
    const revoke = await fetch(`${reddit.url}/api/v1/revoke_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': UA, authorization: `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token: body.refresh_token, token_type_hint: 'refresh_token' }).toString(),
    });
    assert.equal(revoke.status, 200);
    assert.deepEqual(await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token }).then((r) => [r.status, r.body]), [400, { error: 400 }]);
  });

  test('echoRefreshToken: refresh answers repeat the same refresh token', async () => {
    const echoing = await startRedditEmulator({ echoRefreshToken: true });
    try {
      echoing.addApp({ ...APP, redirectUris: [REDIRECT] });
      const user = echoing.addUser({});
      echoing.signIn(user.id);
      const res = await fetch(`${echoing.url}/api/v1/authorize?${new URL(authorizeUrl()).searchParams}`, { redirect: 'manual' });
      const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
      const basic = `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`;
      const post = (form: Record<string, string>) =>
        fetch(`${echoing.url}/api/v1/access_token`, { method: 'POST', headers: { authorization: basic, 'user-agent': UA, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then((r) => r.json() as Promise<any>);
      const issued = await post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      const refreshed = await post({ grant_type: 'refresh_token', refresh_token: issued.refresh_token });
      assert.equal(refreshed.refresh_token, issued.refresh_token);
    } finally {
      await echoing.close();
    }
  });
});

describe('GET /api/v1/me', () => {
  test('the user; URLs HTML-escaped unless raw_json=1; rate-limit headers', async () => {
    const user = reddit.addUser({ name: 'spez_fan', displayName: 'Spez Fan', iconImg: 'https://styles.redditmedia.com/t5_1/styles/profileIcon_a.png?width=256&height=256&s=ab' });
    reddit.signIn(user.id);
    const code = (await consent()).searchParams.get('code')!;
    const { body } = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    const escaped = await me(body.access_token);
    assert.equal(escaped.status, 200);
    assert.equal(escaped.body.id, user.id);
    assert.equal(escaped.body.name, 'spez_fan');
    assert.equal(escaped.body.subreddit.display_name_prefixed, 'u/spez_fan');
    assert.equal(escaped.body.subreddit.title, 'Spez Fan');
    assert.equal(escaped.body.icon_img, 'https://styles.redditmedia.com/t5_1/styles/profileIcon_a.png?width=256&amp;height=256&amp;s=ab');
    assert.equal((await me(body.access_token, { raw: true })).body.icon_img, user.iconImg);
    assert.match(escaped.headers.get('x-ratelimit-remaining')!, /^\d+$/);
    assert.match(escaped.headers.get('x-ratelimit-used')!, /^\d+$/);
  });

  test('an expired, revoked or missing token: 401 {"message":"Unauthorized","error":401}', async () => {
    const { user, body } = await grant();
    reddit.clock.advance(3601 * 1000);
    const expired = await me(body.access_token);
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.body, { message: 'Unauthorized', error: 401 });
    assert.match(expired.headers.get('www-authenticate')!, /invalid_token/);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
    assert.equal((await me(refreshed.body.access_token)).status, 200);
    reddit.revokeUser(user.id);
    assert.equal((await me(refreshed.body.access_token)).status, 401);
    assert.equal((await me(undefined)).status, 401);
  });

  test('without the identity scope: 403 {"message":"Forbidden","error":403}; a generic User-Agent: 429', async () => {
    const { body } = await grant({ scope: 'submit' });
    assert.deepEqual(await me(body.access_token).then((r) => [r.status, r.body]), [403, { message: 'Forbidden', error: 403 }]);
    assert.equal((await me(body.access_token, { ua: 'node' })).status, 429);
  });
});

describe('posting on oauth.reddit.com', () => {
  const call = async (token: string, path: string, form?: Record<string, string>) => {
    const res = await fetch(`${reddit.url}${path}`, {
      method: form ? 'POST' : 'GET',
      headers: { authorization: `bearer ${token}`, 'user-agent': UA, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return { status: res.status, body: await res.json() as any, headers: res.headers };
  };
  const submit = (token: string, form: Record<string, string>) => call(token, '/api/submit', { api_type: 'json', ...form });
  let token: string;
  let readOnly: string;
  let editor: string;

  before(() => {
    const user = reddit.addUser({ name: 'poster' });
    token = reddit.oauth.issue(user.id, APP.clientId, ['identity', 'submit', 'read', 'history']).accessToken;
    readOnly = reddit.oauth.issue(user.id, APP.clientId, ['read']).accessToken;
    editor = reddit.oauth.issue(user.id, APP.clientId, ['edit']).accessToken;
    reddit.addSubreddit({ name: 'news' });
    reddit.addSubreddit({ name: 'flairs', flairRequired: true });
    reddit.addSubreddit({ name: 'links', selfsAllowed: false });
  });

  test('a self post: HTTP 200 with json.data {url, id, name}; rate-limit headers; /api/info shows it', async () => {
    const res = await submit(token, { sr: 'news', kind: 'self', title: 'Hello there', text: 'body' });
    assert.equal(res.status, 200);
    const data = res.body.json.data;
    assert.deepEqual(res.body.json.errors, []);
    assert.equal(data.name, `t3_${data.id}`);
    assert.match(data.url, new RegExp(`^https://www\\.reddit\\.com/r/news/comments/${data.id}/hello_there/$`));
    assert.ok(res.headers.get('x-ratelimit-remaining'));
    const info = await call(token, `/api/info?id=${data.name}`);
    assert.deepEqual(info.body.data.children.map((c: any) => [c.kind, c.data.title, c.data.selftext, c.data.author]), [['t3', 'Hello there', 'body', 'poster']]);
  });

  test('refusals are HTTP 200 with json.errors as [CODE, message, field] triples', async () => {
    const errors = async (form: Record<string, string>) => (await submit(token, form)).body.json.errors.map((e: string[]) => e[0]);
    assert.deepEqual(await errors({ sr: 'nope', kind: 'self', title: 't' }), ['SUBREDDIT_NOEXIST']);
    assert.deepEqual(await errors({ sr: 'news', kind: 'self', title: '' }), ['NO_TEXT']);
    assert.deepEqual(await errors({ sr: 'news', kind: 'self', title: 'x'.repeat(301) }), ['TOO_LONG']);
    assert.deepEqual(await errors({ sr: 'flairs', kind: 'self', title: 't' }), ['SUBMIT_VALIDATION_FLAIR_REQUIRED']);
    assert.deepEqual(await errors({ sr: 'links', kind: 'self', title: 't' }), ['NO_SELFS']);
    assert.deepEqual(await errors({ sr: 'news', kind: 'link', title: 't', url: 'not a url' }), ['BAD_URL']);
    assert.deepEqual(await errors({ sr: 'news', kind: 'self', title: 't', flair_text: 'x'.repeat(65) }), ['TOO_LONG']);
    assert.equal((await submit(readOnly, { sr: 'news', kind: 'self', title: 't' })).status, 403, 'without the submit scope');
  });

  test('RATELIMIT carries its wait in the message and in json.ratelimit (seconds)', async () => {
    reddit.throttle('poster', 5 * 60_000);
    const res = await submit(token, { sr: 'news', kind: 'self', title: 'later' });
    reddit.throttle('poster', 0);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.json.errors, [['RATELIMIT', 'Looks like you\'ve been doing that a lot. Take a break for 5 minutes before trying again.', 'ratelimit']]);
    assert.ok(res.body.json.ratelimit > 299 && res.body.json.ratelimit <= 300);
  });

  test('comments on a submission, /comments/{id} newest first with a "more" stub past the limit, /user/{name}/submitted paged', async () => {
    const post = (await submit(token, { sr: 'news', kind: 'self', title: 'Thread' })).body.json.data;
    for (const text of ['one', 'two', 'three']) {
      const res = await call(token, '/api/comment', { api_type: 'json', thing_id: post.name, text });
      assert.equal(res.body.json.data.things[0].data.parent_id, post.name);
    }
    const [link, comments] = (await call(token, `/comments/${post.id}?sort=new&limit=2`)).body;
    assert.equal(link.data.children[0].data.name, post.name);
    assert.deepEqual(comments.data.children.map((c: any) => c.kind === 'more' ? `more:${c.data.count}` : c.data.body), ['three', 'two', 'more:1']);
    assert.equal((await call(token, '/comments/zzzzzz')).status, 404);
    const first = (await call(token, '/user/poster/submitted?limit=1')).body.data;
    assert.equal(first.children[0].data.name, post.name, 'newest first');
    const second = (await call(token, `/user/poster/submitted?limit=1&after=${first.after}`)).body.data;
    assert.notEqual(second.children[0].data.name, post.name);
    assert.equal((await call(token, '/user/nobody_here/submitted')).status, 404);
    const noParent = await call(token, '/api/comment', { api_type: 'json', thing_id: 't3_zzzz', text: 'x' });
    assert.equal(noParent.body.json.errors[0][0], 'NO_THING_ID');
  });

  test('/comments nests answers in replies listings; limit spends over the whole tree; more stubs, depth stubs; morechildren flat', async () => {
    const post = (await submit(token, { sr: 'news', kind: 'self', title: 'Tree' })).body.json.data;
    const a = reddit.addComment({ on: post.name, author: 'other_one', body: 'a', score: 7 });
    const a1 = reddit.addComment({ on: a.name, author: 'poster', body: 'a1' });
    reddit.addComment({ on: a1.name, author: 'other_one', body: 'a1x' });
    const b = reddit.addComment({ on: post.name, author: 'someone', body: 'b' });
    const [, tree] = (await call(token, `/comments/${post.id}?sort=new`)).body;
    const [first, second] = tree.data.children;
    assert.deepEqual([first.data.body, first.data.replies], ['b', '']);
    assert.equal(first.data.author_fullname, reddit.comments(post.id).find((c) => c.id === b.id)!.authorFullname);
    assert.deepEqual([second.data.body, second.data.score, second.data.depth], ['a', 7, 0]);
    const answer = second.data.replies.data.children[0].data;
    assert.deepEqual([answer.body, answer.depth, answer.parent_id, answer.replies.data.children[0].data.body], ['a1', 1, a.name, 'a1x']);

    const cut = (await call(token, `/comments/${post.id}?limit=2`)).body[1].data.children;
    assert.deepEqual(cut.map((c: any) => [c.kind, c.data.body ?? c.data.count]), [['t1', 'a'], ['more', 1]]);
    assert.deepEqual(cut[0].data.replies.data.children.map((c: any) => [c.kind, c.data.body ?? c.data.children]), [['t1', 'a1'], ], 'a1 fits, its answer does not');
    assert.deepEqual(cut[0].data.replies.data.children[0].data.replies.data.children[0].data, { count: 1, name: `t1_${reddit.comments(post.id)[2]!.id}`, id: reddit.comments(post.id)[2]!.id, parent_id: a1.name, depth: 2, children: [reddit.comments(post.id)[2]!.id] });
    assert.deepEqual(cut[1].data.children, [b.id]);
    const shallow = (await call(token, `/comments/${post.id}?depth=1`)).body[1].data.children;
    assert.deepEqual(shallow[0].data.replies.data.children[0].data, { count: 0, name: 't1__', id: '_', parent_id: a.name, depth: 1, children: [] });

    const more = await call(token, `/api/morechildren?api_type=json&link_id=${post.name}&children=${a.id},${b.id}`);
    assert.deepEqual(more.body.json.data.things.map((t: any) => [t.data.body, t.data.depth, t.data.replies]), [['a', 0, ''], ['a1', 1, ''], ['a1x', 2, ''], ['b', 0, '']]);
    const none = await call(token, '/api/morechildren?api_type=json&link_id=t3_zzzz&children=abc');
    assert.equal(none.body.json.errors[0][0], 'NO_THING_ID');
  });

  test('/api/del deletes only the author\'s own things, always answering {}; /user/{name}/submitted needs history; /api/v1/me shows karma', async () => {
    const mine = (await submit(token, { sr: 'news', kind: 'self', title: 'Gone soon', text: 'secret' })).body.json.data;
    const theirs = reddit.addComment({ on: mine.name, author: 'other_one', body: 'not yours' });
    const del = (id: string) => call(editor, '/api/del', { id });
    assert.equal((await call(token, '/api/del', { id: mine.name })).status, 403, 'without the edit scope');
    assert.deepEqual((await del(theirs.name)).body, {});
    assert.deepEqual((await del(mine.name)).body, {});
    assert.deepEqual((await del('t3_zzzzzz')).body, {});
    const [link, comment] = (await call(token, `/api/info?id=${mine.name},${theirs.name}`)).body.data.children.map((c: any) => c.data);
    assert.deepEqual([link.author, link.selftext, link.removed_by_category, link.author_fullname], ['[deleted]', '[deleted]', 'deleted', undefined]);
    assert.deepEqual([comment.author, comment.body], ['other_one', 'not yours']);
    const submitted = (await call(token, '/user/poster/submitted?limit=100')).body.data.children.map((c: any) => c.data.name);
    assert.ok(!submitted.includes(mine.name));
    const reply = await call(token, '/api/comment', { api_type: 'json', thing_id: mine.name, text: 'late' });
    assert.equal(reply.body.json.errors[0][0], 'DELETED_COMMENT');
    assert.equal((await call(readOnly, '/user/poster/submitted')).status, 403, 'without the history scope');

    const rich = reddit.addUser({ name: 'karma_k', linkKarma: 10, commentKarma: 5, subscribers: 3 });
    const richToken = reddit.oauth.issue(rich.id, APP.clientId, ['identity']).accessToken;
    const me = (await call(richToken, '/api/v1/me')).body;
    assert.deepEqual([me.link_karma, me.comment_karma, me.total_karma, me.subreddit.subscribers], [10, 5, 15, 3]);
  });
});

describe('reddit emulator: listings as the API reference and reddit\'s source order them', () => {
  const get = async (token: string, path: string) => {
    const res = await fetch(`${reddit.url}${path}`, { headers: { authorization: `bearer ${token}`, 'user-agent': UA } });
    return (await res.json()) as any;
  };
  let token: string;
  const submitted: string[] = [];

  before(async () => {
    const user = reddit.addUser({ name: 'lister' });
    token = reddit.oauth.issue(user.id, APP.clientId, ['submit', 'read', 'history']).accessToken;
    reddit.addSubreddit({ name: 'listed' });
    for (const title of ['p1', 'p2', 'p3', 'p4']) {
      const res = await fetch(`${reddit.url}/api/submit`, {
        method: 'POST',
        headers: { authorization: `bearer ${token}`, 'user-agent': UA, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_type: 'json', sr: 'listed', kind: 'self', title }).toString(),
      });
      submitted.push(((await res.json()) as any).json.data.name);
    }
  });

  test('/user/{name}/submitted pages backward with `before`: the items just above the anchor, in listing order', async () => {
    const [p1, p2, p3, p4] = submitted;
    const names = (listing: any) => listing.data.children.map((c: any) => c.data.name);
    // Newest first: p4, p3, p2, p1.
    const page = await get(token, `/user/lister/submitted?limit=2&before=${p1}`);
    assert.deepEqual(names(page), [p3, p2]);
    assert.equal(page.data.after, p2, 'the anchor and what follows it are still ahead');
    assert.deepEqual(names(await get(token, `/user/lister/submitted?limit=2&before=${p3}`)), [p4]);
    assert.deepEqual(names(await get(token, `/user/lister/submitted?limit=2&after=${p3}`)), [p2, p1]);
    assert.deepEqual(names(await get(token, '/user/lister/submitted?limit=2&before=t3_nothing')), [p4, p3], 'an anchor that names nothing: the first page');
  });

  test('/comments/{id}?sort=top answers the highest score first at every level; sort=old oldest first', async () => {
    const post = submitted[0]!;
    const low = reddit.addComment({ on: post, author: 'someone', body: 'low', score: 1 });
    reddit.addComment({ on: post, author: 'someone', body: 'high', score: 50 });
    reddit.addComment({ on: post, author: 'someone', body: 'middle', score: 9 });
    reddit.addComment({ on: low.name, author: 'someone', body: 'low-a', score: 2 });
    reddit.addComment({ on: low.name, author: 'someone', body: 'low-b', score: 3 });
    const bodies = (tree: any) => tree.data.children.map((c: any) => c.data.body);
    const [, top] = await get(token, `/comments/${post.slice(3)}?sort=top`);
    assert.deepEqual(bodies(top), ['high', 'middle', 'low']);
    assert.deepEqual(bodies(top.data.children[2].data.replies), ['low-b', 'low-a']);
    const [, old] = await get(token, `/comments/${post.slice(3)}?sort=old`);
    assert.deepEqual(bodies(old), ['low', 'high', 'middle']);
    const more = await get(token, `/api/morechildren?api_type=json&link_id=${post}&children=${low.id}&sort=top`);
    assert.deepEqual(more.json.data.things.map((t: any) => t.data.body), ['low', 'low-b', 'low-a']);
  });
});

describe('reddit emulator: what the brief\'s doc check found already matching', () => {
  test('X-Ratelimit-Used counts each call of the client, Remaining is what is left of 1,000, Reset the seconds left of the 10-minute window', async () => {
    const user = reddit.addUser({});
    const app = { clientId: 'rate-client', clientSecret: 's', redirectUris: ['https://crier.example/cb'] };
    reddit.addApp(app);
    const token = reddit.oauth.issue(user.id, app.clientId, ['identity']).accessToken;
    const headers = async () => {
      const res = await fetch(`${reddit.url}/api/v1/me`, { headers: { authorization: `bearer ${token}`, 'user-agent': UA } });
      await res.arrayBuffer();
      return ['used', 'remaining', 'reset'].map((h) => Number(res.headers.get(`x-ratelimit-${h}`)));
    };
    const [used1, remaining1, reset1] = await headers();
    reddit.clock.advance(60_000);
    const [used2, remaining2, reset2] = await headers();
    assert.deepEqual([used1, remaining1, used2, remaining2], [1, 999, 2, 998]);
    assert.ok(reset1! <= 600 && reset2 === reset1! - 60, `${reset1} then ${reset2}`);
  });

  test('a kind outside the documented ones is INVALID_OPTION on kind', async () => {
    const user = reddit.addUser({});
    const token = reddit.oauth.issue(user.id, APP.clientId, ['submit']).accessToken;
    const res = await fetch(`${reddit.url}/api/submit`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'user-agent': UA, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_type: 'json', sr: `u_${user.name}`, kind: 'poll', title: 't' }).toString(),
    });
    assert.deepEqual(((await res.json()) as any).json.errors, [['INVALID_OPTION', 'that option is not valid', 'kind']]);
  });
});
