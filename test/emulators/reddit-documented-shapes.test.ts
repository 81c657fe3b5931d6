// The Reddit emulator against the request and answer shapes Reddit documents
// (emulators/reddit/description/*.json, each with its page, the source of its answer and the date it
// was read): for every fixture the emulator gets the documented request and must answer with the
// example's shape (every key, of the same JSON type; no key the example lacks unless the fixture
// says why).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRedditEmulator, type RedditEmulator } from '../../emulators/index.ts';
import { assertDocumentedShape, fixtureNames, loadFixture, shapeProblems, type Fixture } from '../helpers/documented-shape.ts';


const DIR = new URL('../../emulators/reddit/description/', import.meta.url);
const APP = { clientId: 'reddit-doc-client', clientSecret: 'reddit-doc-secret' };
const REDIRECT = 'https://crier.example/oauth/callback/reddit';
/** The User-Agent form Reddit asks for (generic ones are throttled). */
const UA = 'web:reddit-doc-client:crier-tests/1.0 (by /u/crier_dev)';

let reddit: RedditEmulator;
let accessToken = '';
const exercised = new Set<string>();

interface Answer { status: number; body: unknown }

async function send(request: Fixture['request'], basic = false): Promise<Answer> {
  const headers: Record<string, string> = { 'user-agent': UA };
  headers.authorization = basic ? `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}` : `bearer ${accessToken}`;
  let body: string | undefined;
  if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  const res = await fetch(`${reddit.url}${request.path}`, { method: request.method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The fixture's request with documented placeholders and ids replaced (documented → the emulator's). */
function localized<T>(value: T, ids: Record<string, string>): T {
  let text = JSON.stringify(value);
  for (const [documented, ours] of Object.entries(ids)) text = text.split(documented).join(ours);
  return JSON.parse(text) as T;
}

async function check(name: string, ids: Record<string, string> = {}, basic = false): Promise<Answer> {
  const fixture = loadFixture(DIR, name);
  exercised.add(name);
  const answer = await send(localized(fixture.request, ids), basic);
  assertDocumentedShape(fixture, answer.status, answer.body, name);
  return answer;
}

async function newCode(): Promise<string> {
  const user = reddit.addUser({});
  reddit.signIn(user.id);
  const url = new URL(`${reddit.url}/api/v1/authorize`);
  url.search = new URLSearchParams({ client_id: APP.clientId, response_type: 'code', state: 'st', redirect_uri: REDIRECT, duration: 'permanent', scope: 'identity submit edit read' }).toString();
  const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': UA } });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

let postId = '';

before(async () => {
  reddit = await startRedditEmulator();
  reddit.addApp({ ...APP, redirectUris: [REDIRECT] });
  reddit.addSubreddit({ name: 'test' });
  const code = await newCode();
  const answer = await check('access-token.json', { '{CODE}': code, '{URI}': REDIRECT }, true);
  accessToken = (answer.body as { access_token: string }).access_token;
});
after(() => reddit.close());

describe('Reddit emulator: the documented shapes', () => {
  test('the token endpoint\'s invalid_grant for a used code', async () => {
    const fixture = loadFixture(DIR, 'access-token.json');
    const used = await send(localized(fixture.request, { '{CODE}': 'never-issued', '{URI}': REDIRECT }), true);
    assert.deepEqual(shapeProblems(fixture.error!.body, used.body), [], JSON.stringify(used.body));
  });

  test('the account', async () => {
    await check('me.json');
  });

  test('a self post, and a refused one in the json.errors form', async () => {
    const answer = await check('submit.json');
    postId = (answer.body as { json: { data: { id: string } } }).json.data.id;
    const fixture = loadFixture(DIR, 'submit.json');
    const refused = await send({ ...fixture.request, form: { ...fixture.request.form!, sr: 'no_such_subreddit_here' } });
    assert.equal(refused.status, 200);
    assert.deepEqual(shapeProblems(fixture.error!.body, refused.body), [], JSON.stringify(refused.body));
  });

  test('a comment on it, the post read back, then deleted', async () => {
    await check('comment.json', { t3_abc123: `t3_${postId}` });
    await check('info.json', { t3_abc123: `t3_${postId}` });
    await check('del.json', { t3_abc123: `t3_${postId}` });
  });

  test('every fixture in description/ was exercised', () => {
    assert.deepEqual([...exercised].sort(), fixtureNames(DIR));
  });
});
