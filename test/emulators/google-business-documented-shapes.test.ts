// The Business Profile side of the Google emulator against the request and answer shapes Google
// documents where no discovery document holds them (emulators/google/business/description/*.json,
// each with its page and the date it was read; v4 localPosts is in no discovery document): for every
// fixture the emulator gets the documented request and must answer with the documented shape (every
// key, of the same JSON type; no key the example lacks unless the fixture says why).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/google/server.ts';
import { assertDocumentedShape, fixtureNames, loadFixture, shapeProblems, type Fixture } from '../helpers/documented-shape.ts';


const DIR = new URL('../../emulators/google/business/description/', import.meta.url);
const APP = { clientId: 'gbp-doc-client', clientSecret: 'gbp-doc-secret', redirectUris: ['http://localhost/cb'] };
const SCOPE = 'https://www.googleapis.com/auth/business.manage';
/** The bytes Google's photo fetcher gets for the documented sourceUrl: a JPEG's first bytes, then filler. */
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(20_000, 1)]);

let google: GoogleEmulator;
let accessToken = '';
let accountId = '';
let locationId = '';
const exercised = new Set<string>();

interface Answer { status: number; body: unknown }

/** The fixture's request with the documented placeholders replaced by the emulator's ids. */
function localized<T>(value: T, ids: Record<string, string> = {}): T {
  let text = JSON.stringify(value);
  for (const [documented, ours] of Object.entries({ '{accountId}': accountId, '{locationId}': locationId, ...ids })) text = text.split(documented).join(ours);
  return JSON.parse(text) as T;
}

async function send(request: Fixture['request']): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${google.url}${request.path}`, { method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function check(name: string, ids: Record<string, string> = {}): Promise<Answer> {
  const fixture = loadFixture(DIR, name);
  exercised.add(name);
  const answer = await send(localized(fixture.request, ids));
  assertDocumentedShape(fixture, answer.status, answer.body, name);
  return answer;
}

/** "accounts/{a}/locations/{l}/localPosts/{id}" → its id. */
const postIdOf = (answer: Answer) => (answer.body as { name: string }).name.split('/').pop()!;

before(async () => {
  google = await startGoogleEmulator({ fetchMedia: async () => new Response(new Uint8Array(JPEG), { headers: { 'content-type': 'image/jpeg' } }) });
  google.addApp(APP);
  const user = google.addUser({ name: 'Documented Owner', channel: null, businessAccounts: [{ accountName: 'Documented', type: 'LOCATION_GROUP', locations: [{ title: 'Documented' }] }] });
  const account = user.businessAccounts[0]!;
  accountId = account.name.split('/')[1]!;
  locationId = account.locations[0]!.name.split('/')[1]!;
  accessToken = google.oauth.issue(user.id, APP.clientId, [SCOPE]).accessToken;
});
after(() => google.close());

describe('Business Profile on the Google emulator: the documented shapes', () => {
  test('the accounts and their locations, as Crier lists them when connecting', async () => {
    await check('accounts-list.json');
    await check('locations-list.json');
  });

  test('a post with a call to action and a photo; the list pages; delete, then the documented 404', async () => {
    const first = await check('local-posts-create.json');
    const second = await check('local-posts-create.json');
    await check('local-posts-get.json', { '{localPostId}': postIdOf(first) });
    const listed = await check('local-posts-list.json');
    assert.equal((listed.body as { localPosts: { name: string }[] }).localPosts[0]!.name, (second.body as { name: string }).name, 'newest first');
    await check('local-posts-delete.json', { '{localPostId}': postIdOf(first) });
    const fixture = loadFixture(DIR, 'local-posts-delete.json');
    const again = await send(localized(fixture.request, { '{localPostId}': postIdOf(first) }));
    assert.equal(again.status, fixture.error!.status);
    assert.deepEqual(shapeProblems(fixture.error!.body, again.body), [], JSON.stringify(again.body));
  });

  test('daily metrics of the documented range', async () => {
    google.business.setDailyMetric(`locations/${locationId}`, 'WEBSITE_CLICKS', [{ date: '2022-01-01', value: 1 }]);
    google.business.setDailyMetric(`locations/${locationId}`, 'CALL_CLICKS', [{ date: '2022-01-01', value: 2 }]);
    await check('performance-fetch-multi-daily-metrics.json');
  });

  test('every fixture in description/ was exercised', () => {
    assert.deepEqual([...exercised].sort(), fixtureNames(DIR));
  });
});
