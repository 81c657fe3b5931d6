// Crier and the Pinterest emulator held to Pinterest's own description (api-description v5.23.0,
// vendored in emulators/pinterest/description/): every API exchange of a publishing session — boards,
// image, carousel and video pins, figures, deletion — goes through a recording proxy, and each must
// be an operation the description has, with declared parameters of allowed values, a request body of
// its schema, and an answer of a declared status and schema. Paths outside the API (the consent page,
// the S3 upload form) are not in Pinterest's description and are left to the other Pinterest tests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startPinterestEmulator, type PinterestEmulator } from '../../emulators/pinterest/server.ts';
import { openApiChecker, type Exchange } from '../helpers/openapi-check.ts';
import { startRecordingProxy, type RecordedExchange, type RecordingProxy } from '../helpers/recording-proxy.ts';
import type { TestOrg } from '../helpers/harness.ts';
import type { PublishingStack } from '../helpers/publishing.ts';
import { makeJpeg, paddedVideo, startMediaPublishing, type MediaHarness } from '../helpers/media.ts';

const description = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../emulators/pinterest/description/openapi-v5-subset.json'), 'utf8'));
// Pinterest writes its times in UTC without a zone ("2024-01-01T20:10:40", as its own examples show)
// under `format: date-time`, which JSON Schema reads as requiring one.
const problems = openApiChecker(description, { 'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/ });

let pin: PinterestEmulator;
let proxy: RecordingProxy;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;

before(async () => {
  pin = await startPinterestEmulator();
  proxy = await startRecordingProxy(pin.url);
  h = await startMediaPublishing({ CRIER_PINTEREST_BASE_URL: proxy.url });
  pin.trustCa(h.front.ca);
  pin.trustCa(h.stack.media.ca);
  org = await h.server.createOrg();
});
after(async () => {
  await h.close();
  await proxy.close();
  await pin.close();
});

/** A recorded exchange as the description sees it: below its server URL (/v5), bodies parsed. */
function asExchange(e: RecordedExchange): Exchange {
  const parse = (type: string | undefined, body: Buffer) => {
    if (!body.length) return undefined;
    if (type?.startsWith('application/json')) return JSON.parse(body.toString());
    if (type?.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body.toString()));
    return undefined;
  };
  return {
    method: e.method, path: e.path.replace(/^\/v5/, ''), query: e.query, contentType: e.contentType,
    body: parse(e.contentType, e.requestBody), status: e.status, answer: parse(e.answerType, e.answerBody),
  };
}

test('a whole Pinterest session, Crier to emulator and back, conforms to Pinterest\'s description', async () => {
  const user = pin.addUser({ username: 'described' });
  const token = pin.issueToken(user.id);
  const account = await h.server.addAccount(org, 'pinterest', 'described', { networkUniqueId: user.id, accessToken: token });
  const board = pin.addBoard({ ownerId: user.id, name: 'Described' });
  pin.setProcessingPolls(1);
  const jpeg = await makeJpeg('600x900');
  const own = async (name: string, bytes: Buffer, type: string) => ({ url: (await h.upload(org, name, bytes, type)).url, filename: name });
  const publish = async (body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const post = await h.stack.waitForPost(org, created.body.post.id, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    return post;
  };

  const boards = await h.server.request('GET', `/v1/social-accounts/${account.id}/boards`, { key: org.key });
  assert.equal(boards.status, 200);
  const image = await publish({ containers: [{ content: 'one image', media: [await own('a.jpg', jpeg, 'image/jpeg')] }], pinterest: { board_id: board.id, title: 'A', link: 'https://example.com/a', alt_text: 'an image' } });
  await publish({ containers: [{ content: 'three', media: [await own('b.jpg', jpeg, 'image/jpeg'), await own('c.jpg', jpeg, 'image/jpeg'), await own('d.jpg', jpeg, 'image/jpeg')] }], pinterest: { board_id: board.id } });
  await publish({ containers: [{ content: 'a video', media: [await own('v.mp4', await paddedVideo(1024 * 1024), 'video/mp4')] }], pinterest: { board_id: board.id } });
  const figures = await h.server.request('GET', `/v1/posts/${image.id}/analytics`, { key: org.key });
  assert.equal(figures.status, 200, JSON.stringify(figures.body));
  const deleted = await h.server.request('DELETE', `/v1/posts/${image.id}/remote`, { key: org.key });
  assert.equal(deleted.body.data[0].outcome, 'deleted', JSON.stringify(deleted.body));

  const api = proxy.exchanges.filter((e) => e.path.startsWith('/v5/'));
  const operations = new Set(api.map((e) => `${e.method} ${e.path.replace(/\/\d+(?=\/|$)/g, '/{id}')}`));
  for (const expected of ['GET /v5/boards', 'POST /v5/pins', 'POST /v5/media', 'GET /v5/media/{id}', 'GET /v5/pins/{id}/analytics', 'DELETE /v5/pins/{id}']) {
    assert.ok(operations.has(expected), `the session made ${expected}: ${[...operations].join(', ')}`);
  }
  assert.deepEqual(api.flatMap((e) => problems(asExchange(e))), []);
});

test('the check can fail: an unknown parameter, a wrong value, a body off the schema and an undeclared answer are each named', () => {
  assert.deepEqual(problems({ method: 'GET', path: '/boards', query: { page_size: ['25'], colour: ['red'] }, status: 200, answer: { items: [], bookmark: null } }),
    ['GET /boards: query parameter "colour" is not in the description']);
  assert.match(problems({ method: 'GET', path: '/boards', query: { page_size: ['many'] }, status: 200 })[0]!, /page_size=many: .*must be integer/);
  assert.match(problems({ method: 'POST', path: '/pins', query: {}, contentType: 'application/json', body: { board_id: '1', media_source: { source_type: 'image_url' } }, status: 201 })[0]!, /POST \/pins: request body: .*url/);
  assert.match(problems({ method: 'POST', path: '/pins', query: {}, status: 302 })[0]!, /status 302 is not among its responses/);
  assert.deepEqual(problems({ method: 'GET', path: '/nowhere', query: {}, status: 200 }), ['GET /nowhere: no such operation in the description']);
});
