// The Threads emulator against Meta's documented examples (issue 28). Meta publishes no
// machine-readable description of the Threads API, so emulators/threads/description/ holds, per call
// Crier makes, the request and the example answer shown on Meta's Threads pages (URL and date in each
// file). Each test sends the documented request to the emulator and checks that the answer has the
// example's shape: every key of the example present with the same JSON type (recursively, arrays by
// their first element), and no key the example lacks unless the fixture names it in
// `extraKeysAllowed` with a reason. Ids and values may differ. (The shape check is the one in
// facebook-documented-shapes.test.ts: test files cannot import each other without running them.)
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startThreadsEmulator, type ThreadsEmulator } from '../../emulators/threads/server.ts';
import { assertShape, fixtureNames, loadFixture, type BodyFixture } from '../helpers/documented-shape.ts';

const DESCRIPTION = new URL('../../emulators/threads/description/', import.meta.url);
const APP = { clientId: '990602627938098', clientSecret: 'threads-app-secret', redirectUris: ['https://app.example.com/threads/cb'] };

const fixtures = fixtureNames(DESCRIPTION).map((file) => ({ file, fixture: loadFixture<BodyFixture>(DESCRIPTION, file) }));

type Answer = { status: number; body: unknown };
const json = async (res: Response): Promise<Answer> => ({ status: res.status, body: await res.json() });

describe('the Threads emulator answers as Meta documents (emulators/threads/description/)', () => {
  let threads: ThreadsEmulator;
  let media: Server;
  let mediaUrl: string;
  let user: { id: string };
  let token: string;

  const post = (pathname: string, form: Record<string, string>) =>
    fetch(`${threads.url}${pathname}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then(json);
  const get = (pathname: string, params: Record<string, string>) => fetch(`${threads.url}${pathname}?${new URLSearchParams(params)}`).then(json);
  const read = (pathname: string, params: Record<string, string>) => get(pathname, { access_token: token, ...params });
  const container = async (form: Record<string, string>) => {
    const created = await post(`/v1.0/${user.id}/threads`, form);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return (created.body as { id: string }).id;
  };
  const publish = async (creationId: string) => {
    const published = await post(`/v1.0/${user.id}/threads_publish`, { creation_id: creationId });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    return (published.body as { id: string }).id;
  };
  /** A container's status once it is no longer IN_PROGRESS. */
  const settled = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      const answer = await read(`/v1.0/${id}`, { fields: 'status,error_message' });
      if ((answer.body as { status?: string }).status !== 'IN_PROGRESS') return answer;
      threads.clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`container ${id} stayed IN_PROGRESS`);
  };
  /** A short-lived token through the authorize window and the code exchange, as a user connects. */
  const shortLived = async () => {
    threads.signIn(threads.addUser().id);
    const authorize = `${threads.url}/oauth/authorize?${new URLSearchParams({ client_id: APP.clientId, redirect_uri: APP.redirectUris[0]!, scope: 'threads_basic', response_type: 'code' })}`;
    const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const exchanged = await fetch(`${threads.url}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: APP.clientId, client_secret: APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: APP.redirectUris[0]! }).toString() }).then(json);
    return (exchanged.body as { access_token: string }).access_token;
  };

  /** Each fixture's documented request (and, where it has one, its error example's), sent with the state it needs. */
  const drivers: Record<string, { answer: () => Promise<Answer>; error?: () => Promise<Answer> }> = {
    'threads-container-create.json': {
      answer: async () => {
        const root = await publish(await container({ media_type: 'TEXT', text: 'the root post' }));
        return post('/v1.0/me/threads', { media_type: 'TEXT', text: 'a reply', reply_to_id: root });
      },
    },
    'threads-publish.json': {
      answer: async () => post(`/v1.0/${user.id}/threads_publish`, { creation_id: await container({ media_type: 'TEXT', text: 'to publish' }) }),
    },
    'threads-container-status.json': {
      answer: async () => settled(await container({ media_type: 'TEXT', text: 'status' })),
      error: async () => settled(await container({ media_type: 'VIDEO', video_url: `${mediaUrl}/missing.mp4` })),
    },
    'threads-publishing-limit.json': {
      answer: async () => {
        await publish(await container({ media_type: 'TEXT', text: 'counted' }));
        return read(`/v1.0/${user.id}/threads_publishing_limit`, { fields: 'quota_usage,config' });
      },
    },
    'threads-reply-publishing-limit.json': {
      answer: () => read(`/v1.0/${user.id}/threads_publishing_limit`, { fields: 'reply_quota_usage,reply_config' }),
    },
    // A long-lived token can be refreshed once it is 24 hours old (the same page).
    'threads-refresh-token.json': {
      answer: () => {
        const longLived = threads.issueLongLived(threads.addUser().id, APP.clientId, ['threads_basic']);
        threads.clock.advance(25 * 3600_000);
        return get('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: longLived });
      },
    },
    'threads-long-lived-token.json': {
      answer: async () => get('/access_token', { grant_type: 'th_exchange_token', client_secret: APP.clientSecret, access_token: await shortLived() }),
    },
  };

  before(async () => {
    threads = await startThreadsEmulator();
    threads.addApp(APP);
    media = createServer((_req, res) => { res.writeHead(404); res.end('not found'); });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    user = threads.addUser({ username: 'shapes' });
    token = threads.issueLongLived(user.id, APP.clientId, ['threads_basic', 'threads_content_publish', 'threads_manage_replies']);
  });
  after(async () => {
    await new Promise<void>((resolve) => media.close(() => resolve()));
    await threads.close();
  });

  test('every fixture names its source page, the date it was checked, and a documented request', () => {
    assert.ok(fixtures.length > 0);
    for (const { file, fixture } of fixtures) {
      assert.match(fixture.source, /^https:\/\/developers\.facebook\.com\//, file);
      assert.match(fixture.checked, /^\d{4}-\d{2}-\d{2}$/, file);
      assert.match(fixture.request.method, /^(GET|POST|DELETE)$/, file);
      assert.ok(drivers[file], `${file} has no driver in this test`);
      assert.equal(fixture.error === undefined, drivers[file]!.error === undefined, `${file}: its error example and the driver's error request go together`);
    }
  });

  for (const { file, fixture } of fixtures) {
    test(`${file}: ${fixture.request.method} ${fixture.request.path} has the documented shape`, async () => {
      const answer = await drivers[file]!.answer();
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertShape(fixture.response, answer.body, fixture.extraKeysAllowed);
    });
    if (fixture.error === undefined) continue;
    test(`${file}: the documented error example has the emulator's shape too`, async () => {
      const answer = await drivers[file]!.error!();
      assertShape(fixture.error, answer.body, fixture.extraKeysAllowed);
    });
  }
});
