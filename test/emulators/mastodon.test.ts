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
  test('context: ancestors from the top, descendants depth first; a followers-only reply seen by its author and the one it answers only', async () => {
    const asker = masto.addAccount({ username: 'asker' });
    const outsider = masto.addAccount({ username: 'outsider' });
    const root = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'root' } })).body;
    const first = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'first', in_reply_to_id: root.id }, token: asker.token })).body;
    const second = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'second', in_reply_to_id: root.id } })).body;
    const deep = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'deep', in_reply_to_id: first.id, visibility: 'private' } })).body;
    const context = await call(`/api/v1/statuses/${root.id}/context`);
    assert.deepEqual([context.status, context.body.ancestors, context.body.descendants.map((d: any) => [d.id, d.in_reply_to_id])], [200, [], [[first.id, root.id], [deep.id, first.id], [second.id, root.id]]]);
    assert.deepEqual((await call(`/api/v1/statuses/${deep.id}/context`)).body.ancestors.map((a: any) => a.id), [root.id, first.id]);
    assert.deepEqual((await call(`/api/v1/statuses/${root.id}/context`, { token: asker.token })).body.descendants.map((d: any) => d.id), [first.id, deep.id, second.id]);
    assert.deepEqual((await call(`/api/v1/statuses/${root.id}/context`, { token: outsider.token })).body.descendants.map((d: any) => d.id), [first.id, second.id]);
    assert.equal((await call(`/api/v1/statuses/${deep.id}`, { token: outsider.token })).status, 404);
    assert.deepEqual((await call('/api/v1/statuses/1/context')).body, { error: 'Record not found' });
  });

  test('counts: replies, boosts and favourites as other accounts act; content rendered as paragraphs and line breaks', async () => {
    const fan = masto.addAccount({ username: 'fan' });
    const status = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'a <b>bold</b> & claim\nline\n\nnext' } })).body;
    assert.equal(status.content, '<p>a &lt;b&gt;bold&lt;/b&gt; &amp; claim<br />line</p><p>next</p>');
    masto.reply(fan.id, status.id, 'reply');
    masto.favourite(fan.id, status.id);
    masto.favourite(fan.id, status.id);
    const boost = masto.boost(fan.id, status.id);
    const read = (await call(`/api/v1/statuses/${status.id}`)).body;
    assert.deepEqual([read.replies_count, read.reblogs_count, read.favourites_count], [1, 1, 1]);
    const boosted = (await call(`/api/v1/statuses/${boost.id}`)).body;
    assert.deepEqual([boosted.content, boosted.reblog.id, boosted.account.id], ['', status.id, fan.id]);
    assert.deepEqual((await call(`/api/v1/accounts/${fan.id}/statuses?exclude_reblogs=true`)).body.map((s: any) => s.id), [masto.statusesOf(fan.id)[0]!.id]);
    masto.setFollowCounts(fan.id, 3, 4);
    const shown = await call(`/api/v1/accounts/${fan.id}`);
    assert.deepEqual([shown.status, shown.body.acct, shown.body.followers_count, shown.body.following_count, shown.body.statuses_count], [200, 'fan', 3, 4, 2]);
    assert.equal((await call('/api/v1/accounts/1')).status, 404);
  });

  test('edit: the new text, edited_at; what the request omits goes (media, poll, warning), language stays; only the author, 404 otherwise; 422 on a blank text', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'e.png');
    const media = (await call('/api/v2/media', { method: 'POST', form })).body;
    const status = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'before', media_ids: [media.id], spoiler_text: 'cw', language: 'fr' } })).body;
    assert.equal(status.edited_at, null);
    const kept = await call(`/api/v1/statuses/${status.id}`, { method: 'PUT', json: { status: 'after', media_ids: [media.id], spoiler_text: 'cw' } });
    assert.deepEqual([kept.status, kept.body.content, kept.body.spoiler_text, kept.body.sensitive, kept.body.language, kept.body.media_attachments.length], [200, '<p>after</p>', 'cw', true, 'fr', 1]);
    assert.match(kept.body.edited_at, /^\d{4}-/);
    const bare = (await call(`/api/v1/statuses/${status.id}`, { method: 'PUT', json: { status: 'bare' } })).body;
    assert.deepEqual([bare.content, bare.spoiler_text, bare.sensitive, bare.language, bare.media_attachments], ['<p>bare</p>', '', false, 'fr', []]);
    const stranger = masto.addAccount({ username: 'editor' });
    assert.deepEqual(await call(`/api/v1/statuses/${status.id}`, { method: 'PUT', json: { status: 'mine' }, token: stranger.token }).then((r) => [r.status, r.body]), [404, { error: 'Record not found' }]);
    assert.deepEqual(await call(`/api/v1/statuses/${status.id}`, { method: 'PUT', json: { status: ' ' } }).then((r) => [r.status, r.body]), [422, { error: "Validation failed: Text can't be blank" }]);
    const polled = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'vote', poll: { options: ['a', 'b'], expires_in: 600 } } })).body;
    assert.equal((await call(`/api/v1/statuses/${polled.id}`, { method: 'PUT', json: { status: 'vote!' } })).body.poll, null);
  });

  test('account statuses: the Link header pages (next only on a full page); exclude_replies keeps the account answering itself', async () => {
    const pager = masto.addAccount({ username: 'pager' });
    const stranger = masto.addAccount({ username: 'stranger' });
    const theirs = (await call('/api/v1/statuses', { method: 'POST', json: { status: 'theirs' }, token: stranger.token })).body;
    const post = (status: string, inReplyTo?: string) => call('/api/v1/statuses', { method: 'POST', json: { status, ...(inReplyTo ? { in_reply_to_id: inReplyTo } : {}) }, token: pager.token }).then((r) => r.body.id as string);
    const root = await post('root');
    const self = await post('thread', root);
    await post('to a stranger', theirs.id);
    const last = await post('last');
    const page = await call(`/api/v1/accounts/${pager.id}/statuses?limit=2&exclude_replies=true`);
    assert.deepEqual(page.body.map((s: any) => s.id), [last, self]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link')!)![1]!;
    assert.deepEqual([new URL(next).searchParams.get('max_id'), new URL(next).searchParams.get('exclude_replies')], [self, 'true']);
    assert.match(page.headers.get('link')!, new RegExp(`min_id=${last}>; rel="prev"`));
    const rest = await call(new URL(next).pathname + new URL(next).search);
    assert.deepEqual(rest.body.map((s: any) => s.id), [root]);
    assert.doesNotMatch(rest.headers.get('link')!, /rel="next"/);
    assert.deepEqual((await call(`/api/v1/accounts/${pager.id}/statuses?min_id=${root}&limit=1`)).body.map((s: any) => s.id), [self]);
  });
});
