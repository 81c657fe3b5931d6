// The Facebook emulator against Meta's documented examples (issue 28). Meta publishes no
// machine-readable description of the Graph API, so emulators/facebook/description/ holds, per call
// Crier makes, the request and the example answer shown on Meta's reference page (URL and date in
// each file). Each test sends the documented request to the emulator and checks that the answer has
// the example's shape: every key of the example present with the same JSON type (recursively, arrays
// by their first element), and no key the example lacks unless the fixture names it in
// `extraKeysAllowed` with a reason. Ids and values may differ.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';
import { assertShape, fixtureNames, loadFixture, type BodyFixture } from '../helpers/documented-shape.ts';

const DESCRIPTION = new URL('../../emulators/facebook/description/', import.meta.url);
const APP = { clientId: '4242424242', clientSecret: 'emulator-secret' };
const REDIRECT = 'https://crier.example/oauth/callback/facebook';
const V = 'v23.0';

const fixtures = fixtureNames(DESCRIPTION).map((file) => ({ file, fixture: loadFixture<BodyFixture>(DESCRIPTION, file) }));

describe('the Facebook emulator answers as Meta documents (emulators/facebook/description/)', () => {
  let fb: FacebookEmulator;
  let media: TestHttpsServer;
  let hooks: Server;
  let token: string;
  let pageId: string;
  let igId: string;
  let contactId: string;

  const call = async (method: string, pathAndQuery: string, params: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { authorization: `OAuth ${token}` } };
    if (method === 'POST') {
      init.headers = { ...init.headers, 'content-type': 'application/x-www-form-urlencoded' };
      init.body = new URLSearchParams(params).toString();
    }
    const query = method === 'GET' && Object.keys(params).length ? `?${new URLSearchParams(params)}` : '';
    const res = await fetch(`${fb.url}/${V}${pathAndQuery}${query}`, init);
    return { status: res.status, body: (await res.json()) as unknown };
  };

  /** A FINISHED image container of the account. */
  const finishedContainer = async () => {
    const created = await call('POST', `/${igId}/media`, { image_url: `${media.url}/a.png`, caption: 'shape' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    fb.clock.advance(60_000);
    return (created.body as { id: string }).id;
  };

  /** A short-lived user token through the login dialog and the code exchange, as a user connects. */
  const shortLivedUserToken = async () => {
    fb.signIn(fb.addUser({}).id);
    const dialog = `${fb.url}/${V}/dialog/oauth?${new URLSearchParams({ client_id: APP.clientId, redirect_uri: REDIRECT, state: 'st', scope: 'pages_show_list', response_type: 'code' })}`;
    const code = new URL((await fetch(dialog, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const exchanged = await fetch(`${fb.url}/${V}/oauth/access_token?${new URLSearchParams({ client_id: APP.clientId, client_secret: APP.clientSecret, redirect_uri: REDIRECT, code })}`);
    return ((await exchanged.json()) as { access_token: string }).access_token;
  };

  /** Each fixture's documented request, sent to the emulator with the state it needs. */
  const drivers: Record<string, () => Promise<{ status: number; body: unknown }>> = {
    'page-feed-create.json': () => call('POST', `/${pageId}/feed`, { message: 'Hello Fans!' }),
    // Without `published`: the default, a published photo (a feed post).
    'page-photos-create.json': () => call('POST', `/${pageId}/photos`, { url: `${media.url}/a.png` }),
    'ig-media-create.json': () => call('POST', `/${igId}/media`, { image_url: `${media.url}/a.png`, caption: '#BronzedFonzes!', user_tags: JSON.stringify([{ username: 'kevinhart4real', x: 0.5, y: 0.8 }, { username: 'therock', x: 0.3, y: 0.2 }]) }),
    'ig-comment-create.json': async () => {
      const published = await call('POST', `/${igId}/media_publish`, { creation_id: await finishedContainer() });
      return call('POST', `/${(published.body as { id: string }).id}/comments`, { message: 'This is awesome!' });
    },
    'ig-media-publish.json': async () => call('POST', `/${igId}/media_publish`, { creation_id: await finishedContainer() }),
    'ig-container-status.json': async () => call('GET', `/${await finishedContainer()}`, { fields: 'status_code' }),
    // Crier's request (fields=quota_usage,config): see the fixture's note on the page's example.
    'ig-content-publishing-limit.json': () => call('GET', `/${igId}/content_publishing_limit`, { fields: 'quota_usage,config', since: String(Math.floor(Date.now() / 1000) - 3600) }),
    // The page's form: recipient and message as JSON strings.
    'instagram-send-message.json': () => call('POST', '/me/messages', { recipient: JSON.stringify({ id: contactId }), message: JSON.stringify({ text: 'TEXT-OR-LINK' }) }),
    'oauth-long-lived-token.json': async () => {
      const query = new URLSearchParams({ grant_type: 'fb_exchange_token', client_id: APP.clientId, client_secret: APP.clientSecret, fb_exchange_token: await shortLivedUserToken() });
      const res = await fetch(`${fb.url}/${V}/oauth/access_token?${query}`);
      return { status: res.status, body: await res.json() };
    },
  };

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp({ ...APP, redirectUris: [REDIRECT] });
    media = await startHttpsServer();
    media.route('/a.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG_1X1); });
    fb.trustMediaCa(media.ca);
    hooks = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    fb.instagramMessaging.subscribe(`http://127.0.0.1:${(hooks.address() as AddressInfo).port}/`, APP.clientSecret);
    fb.instagramMessaging.echoSends(false);
    const user = fb.addUser({ pages: [{ name: 'Shapes', instagram: { username: 'shapes' } }] });
    pageId = user.pageIds[0]!;
    token = fb.issuePageToken(pageId, APP.clientId, ['pages_manage_posts', 'pages_read_engagement', 'pages_show_list', 'pages_messaging', 'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments', 'instagram_manage_messages']);
    igId = (await call('GET', `/${pageId}`, { fields: 'instagram_business_account' }) as { body: { instagram_business_account: { id: string } } }).body.instagram_business_account.id;
    contactId = fb.instagramMessaging.addContact({ username: 'buyer' }).id;
    await fb.instagramMessaging.message({ igUserId: igId, from: contactId, text: 'hello' });
  });
  after(async () => {
    await media.close();
    await new Promise((resolve) => hooks.close(resolve));
    await fb.close();
  });

  test('every fixture names its source page, the date it was checked, and a documented request', () => {
    assert.ok(fixtures.length > 0);
    for (const { file, fixture } of fixtures) {
      assert.match(fixture.source, /^https:\/\/developers\.facebook\.com\//, file);
      assert.match(fixture.checked, /^\d{4}-\d{2}-\d{2}$/, file);
      assert.match(fixture.request.method, /^(GET|POST|DELETE)$/, file);
      assert.ok(drivers[file], `${file} has no driver in this test`);
    }
  });

  for (const { file, fixture } of fixtures) {
    test(`${file}: ${fixture.request.method} ${fixture.request.path} has the documented shape`, async () => {
      const answer = await drivers[file]!();
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertShape(fixture.response, answer.body, fixture.extraKeysAllowed);
    });
  }
});
