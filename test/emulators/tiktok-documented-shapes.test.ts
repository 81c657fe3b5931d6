// The TikTok emulator against the request and answer shapes TikTok documents
// (emulators/tiktok/description/*.json, each with its page and the date it was read): for every
// fixture the emulator gets the documented request and must answer with the documented example's
// shape (every key, of the same JSON type; no key the example lacks unless the fixture says why).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTikTokEmulator, type TikTokEmulator } from '../../emulators/index.ts';
import { assertDocumentedShape, fixtureNames, loadFixture, shapeProblems, type Fixture } from '../helpers/documented-shape.ts';


const DIR = new URL('../../emulators/tiktok/description/', import.meta.url);
const APP = { clientId: 'awdocumentedclientkey', clientSecret: 'tiktok-doc-secret', redirectUris: ['https://app.example.com/tiktok/cb'] };
const REDIRECT = APP.redirectUris[0]!;

let tiktok: TikTokEmulator;
let accessToken = '';
const exercised = new Set<string>();

interface Answer { status: number; body: unknown }

async function send(request: Fixture['request']): Promise<Answer> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.body !== undefined) {
    headers['content-type'] = 'application/json; charset=UTF-8';
    body = JSON.stringify(request.body);
  }
  if (accessToken && !request.form) headers.authorization = `Bearer ${accessToken}`;
  const res = await fetch(`${tiktok.url}${request.path}`, { method: request.method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The fixture's request with documented placeholders and ids replaced (documented → the emulator's). */
function localized<T>(value: T, ids: Record<string, string>): T {
  let text = JSON.stringify(value);
  for (const [documented, ours] of Object.entries(ids)) text = text.split(documented).join(ours);
  return JSON.parse(text) as T;
}

async function check(name: string, ids: Record<string, string> = {}): Promise<Answer> {
  const fixture = loadFixture(DIR, name);
  exercised.add(name);
  const answer = await send(localized(fixture.request, ids));
  assertDocumentedShape(fixture, answer.status, answer.body, name);
  return answer;
}

async function newCode(): Promise<string> {
  const user = tiktok.addUser({});
  tiktok.signIn(user.openId);
  const query = new URLSearchParams({ client_key: APP.clientId, scope: 'user.info.basic,video.publish,video.upload', response_type: 'code', redirect_uri: REDIRECT, state: 'st' });
  const res = await fetch(`${tiktok.url}/v2/auth/authorize/?${query}`, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

const tokenIds = (code: string) => ({ '{CLIENT_KEY}': APP.clientId, '{CLIENT_SECRET}': APP.clientSecret, '{CODE}': code, '{REDIRECT_URI}': REDIRECT });

before(async () => {
  tiktok = await startTikTokEmulator({
    // The documented example URLs, verified for the app as the media transfer guide requires.
    verifiedPrefixes: ['https://example.verified.domain.com/', 'https://tiktokcdn.com/obj/'],
    // Nothing is downloaded in these tests: only the init answers are looked at.
    fetchMedia: async () => new Response('not here', { status: 404 }),
  });
  tiktok.addApp(APP);
  const answer = await check('oauth-token.json', tokenIds(await newCode()));
  accessToken = (answer.body as { access_token: string }).access_token;
});
after(() => tiktok.close());

describe('TikTok emulator: the documented shapes', () => {
  test('the token endpoint\'s documented error body', async () => {
    const fixture = loadFixture(DIR, 'oauth-token.json');
    const saved = accessToken;
    accessToken = '';
    const refused = await send(localized(fixture.request, tokenIds('never-issued')));
    accessToken = saved;
    assert.deepEqual(shapeProblems(fixture.error!.body, refused.body), [], JSON.stringify(refused.body));
  });

  test('user info with the example\'s fields', async () => {
    await check('user-info.json');
  });

  test('creator info, then a direct post by FILE_UPLOAD and its status', async () => {
    await check('creator-info-query.json');
    const init = await check('video-init-file-upload.json');
    const publishId = (init.body as { data: { publish_id: string } }).data.publish_id;
    await check('status-fetch.json', { 'v_pub_file~v2-1.123456789': publishId });
  });

  test('a direct post by PULL_FROM_URL from a verified prefix', async () => {
    await check('video-init-pull-from-url.json');
  });

  test('a draft to the creator\'s inbox by FILE_UPLOAD', async () => {
    await check('inbox-video-init.json');
  });

  test('a photo post (content init, PULL_FROM_URL)', async () => {
    await check('content-init-photo.json');
  });

  test('every fixture in description/ was exercised', () => {
    assert.deepEqual([...exercised].sort(), fixtureNames(DIR));
  });
});
