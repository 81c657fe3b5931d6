// The Mastodon emulator as the documentation describes the instance, over raw HTTP: tokens (invalid,
// revoked), the rate-limit headers, media processing (202, then 206 until processed, then 200),
// Idempotency-Key kept one hour, an account's statuses newest first with paging, and deletion.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../emulators/mastodon/server.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';

let masto: MastodonEmulator;
let account: Account;

before(async () => {
  masto = await startMastodonEmulator();
  account = masto.addAccount({ username: 'raw' });
});
after(() => masto.close());

async function call(path: string, init: { method?: string; json?: unknown; form?: FormData; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${init.token ?? account.token}`, ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${masto.url}${path}`, { method: init.method ?? 'GET', headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form });
  return { status: res.status, headers: res.headers, body: await res.json() as any };
}

describe('the Mastodon emulator', () => {
  test('an unknown token, a revoked one: 401 with the documented texts', async () => {
    assert.deepEqual(await call('/api/v1/accounts/verify_credentials', { token: 'nope' }).then((r) => [r.status, r.body]), [401, { error: 'The access token is invalid' }]);
    const gone = masto.addAccount({ username: 'gone' });
    masto.revokeToken(gone.id);
    assert.deepEqual(await call('/api/v1/accounts/verify_credentials', { token: gone.token }).then((r) => [r.status, r.body]), [401, { error: 'The access token was revoked' }]);
  });

  test('every authenticated answer carries the rate-limit headers; the reset is an ISO 8601 time', async () => {
    const res = await call('/api/v1/accounts/verify_credentials');
    assert.equal(res.headers.get('x-ratelimit-limit'), '300');
    assert.ok(Number(res.headers.get('x-ratelimit-remaining')) < 300);
    assert.match(res.headers.get('x-ratelimit-reset')!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    masto.rateLimitNext(1);
    assert.deepEqual(await call('/api/v1/accounts/verify_credentials').then((r) => [r.status, r.body]), [429, { error: 'Too many requests' }]);
  });

  test('media processed in the background: 202 with url null, 206 while processing, 200 with the url; not attachable meanwhile', async () => {
    masto.processInBackground(1);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'p.png');
    form.append('description', 'alt');
    const created = await call('/api/v2/media', { method: 'POST', form });
    masto.processInBackground(0);
    assert.deepEqual([created.status, created.body.url, created.body.description], [202, null, 'alt']);
    const early = await call('/api/v1/statuses', { method: 'POST', json: { status: 'too soon', media_ids: [created.body.id] } });
    assert.deepEqual([early.status, early.body.error], [422, 'Cannot attach files that have not finished processing. Try again in a moment!']);
    assert.equal((await call(`/api/v1/media/${created.body.id}`)).status, 206);
    const done = await call(`/api/v1/media/${created.body.id}`);
    assert.equal(done.status, 200);
    assert.match(done.body.url, /^http/);
  });

  test('Idempotency-Key: the same key answers the same status for an hour, then makes a new one', async () => {
    const post = () => call('/api/v1/statuses', { method: 'POST', json: { status: 'keyed' }, headers: { 'idempotency-key': 'k-1' } });
    const first = await post();
    assert.equal((await post()).body.id, first.body.id);
    masto.advanceClock(61 * 60_000);
    assert.notEqual((await post()).body.id, first.body.id);
    masto.advanceClock(-61 * 60_000);
  });

  test('an account\'s statuses, newest first, paged with max_id; a deleted one answers its source and is gone', async () => {
    const other = masto.addAccount({ username: 'lister' });
    const ids = [];
    for (const text of ['one', 'two', 'three']) ids.push((await call('/api/v1/statuses', { method: 'POST', json: { status: text }, token: other.token })).body.id);
    const page = await call(`/api/v1/accounts/${other.id}/statuses?limit=2`);
    assert.deepEqual(page.body.map((s: any) => s.id), [ids[2], ids[1]]);
    assert.deepEqual((await call(`/api/v1/accounts/${other.id}/statuses?max_id=${ids[1]}`)).body.map((s: any) => s.id), [ids[0]]);
    assert.deepEqual(await call(`/api/v1/statuses/${ids[0]}`, { method: 'DELETE' }).then((r) => [r.status, r.body.error]), [403, 'This action is not allowed']);
    const deleted = await call(`/api/v1/statuses/${ids[0]}`, { method: 'DELETE', token: other.token });
    assert.deepEqual([deleted.status, deleted.body.text], [200, 'one']);
    assert.equal((await call(`/api/v1/statuses/${ids[0]}`)).status, 404);
  });
});
