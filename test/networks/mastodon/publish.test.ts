// Publishing to a Mastodon account over real HTTP: Crier's API and worker, the emulated instance, and
// what Crier reports. Each test checks what the instance holds afterwards: statuses, their media (alt
// text, processing waited for), content warning, visibility, language, poll, replies.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { makeJpeg, paddedVideo } from '../../helpers/media.ts';
import { until } from '../../helpers/until.ts';
import { startMastodonStack, type Connected, type MastodonStack } from './setup.ts';
import { publishedDestination } from '../../helpers/posting-stack.ts';

describe('publishing to Mastodon', () => {
  let s: MastodonStack;
  let jpeg: Buffer;

  before(async () => {
    s = await startMastodonStack();
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const destination = (post: any) => post.socialAccounts[0];
  const statuses = (account: Connected) => s.masto.statusesOf(account.remote.id);
  const photo = (name: string, altText?: string) => s.media(name, jpeg, 'image/jpeg', altText);

  it('a text status: its id and URL on the instance, sent with an Idempotency-Key', async () => {
    const account = await s.connect();
    const dest = publishedDestination(await s.publish(account, { containers: [{ content: 'hello fediverse https://example.com/a/very/long/path' }] }));
    const [status] = statuses(account);
    assert.equal(status!.text, 'hello fediverse https://example.com/a/very/long/path');
    assert.equal(status!.visibility, 'public');
    assert.match(status!.idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(dest.platformPostId, status!.id);
    assert.equal(dest.platformPostUrl, `${s.masto.url}/@${account.remote.username}/${status!.id}`);
  });

  it('an image with alt text, processed in the background: Crier waits until it is processed, then posts it', async () => {
    const account = await s.connect();
    s.masto.processInBackground(2);
    try {
      publishedDestination(await s.publish(account, { containers: [{ content: 'a picture', media: [await photo('one.jpg', 'a test pattern')] }] }));
    } finally {
      s.masto.processInBackground(0);
    }
    const [status] = statuses(account);
    assert.equal(status!.mediaIds.length, 1);
    const media = s.masto.media(status!.mediaIds[0]!)!;
    assert.deepEqual([media.description, media.size, media.pendingPolls, media.type], ['a test pattern', jpeg.length, 0, 'image']);
  });

  it('the block: content warning, visibility, language and sensitivity on every status; content on the root', async () => {
    const account = await s.connect();
    publishedDestination(await s.publish(account, {
      containers: [{ content: 'fallback' }, { content: 'the reply' }],
      mastodon: { content: 'spoilers inside', spoilerText: 'film ending', visibility: 'unlisted', language: 'en', sensitive: true },
    }));
    const [root, reply] = statuses(account);
    assert.deepEqual([root!.text, root!.spoilerText, root!.visibility, root!.language, root!.sensitive], ['spoilers inside', 'film ending', 'unlisted', 'en', true]);
    assert.deepEqual([reply!.text, reply!.spoilerText, reply!.visibility, reply!.inReplyToId], ['the reply', 'film ending', 'unlisted', root!.id]);
  });

  it('a poll on the root', async () => {
    const account = await s.connect();
    publishedDestination(await s.publish(account, { containers: [{ content: 'tabs or spaces?' }], mastodon: { poll: { options: ['tabs', 'spaces'], expiresIn: 3600, multiple: true, hideTotals: true } } }));
    const [status] = statuses(account);
    assert.deepEqual([status!.poll!.options, status!.poll!.multiple, status!.poll!.hideTotals], [['tabs', 'spaces'], true, true]);
  });

  it('a thread: every later status replies to the root', async () => {
    const account = await s.connect();
    const dest = publishedDestination(await s.publish(account, { containers: [{ content: 'first' }, { content: 'second' }, { content: 'third', media: [await photo('t.jpg')] }] }));
    const [root, second, third] = statuses(account);
    assert.deepEqual([root!.text, second!.text, third!.text], ['first', 'second', 'third']);
    assert.deepEqual([root!.inReplyToId, second!.inReplyToId, third!.inReplyToId], [null, root!.id, root!.id]);
    assert.equal(third!.mediaIds.length, 1);
    assert.equal(dest.platformPostId, root!.id);
  });

  it('an instance with smaller limits: refused before any status, with the instance\'s numbers', async () => {
    const account = await s.connect();
    s.masto.setConfiguration({ statuses: { max_characters: 100 }, polls: { max_options: 2 } });
    try {
      const long = destination(await s.publish(account, { containers: [{ content: 'x'.repeat(101) }] }));
      assert.equal(long.status, 'failed');
      assert.match(long.error, /^mastodon: container 1 has 101 characters as Mastodon counts them .*; the instance allows 100$/);
      const poll = destination(await s.publish(account, { containers: [{ content: 'pick' }], mastodon: { poll: { options: ['a', 'b', 'c'], expiresIn: 3600 } } }));
      assert.equal(poll.status, 'failed');
      assert.equal(poll.error, 'mastodon: the poll has 3 options; the instance takes 2 at most');
      assert.deepEqual(statuses(account), []);
    } finally {
      s.masto.setConfiguration({ statuses: { max_characters: 500 }, polls: { max_options: 4 } });
    }
  });

  it('what no instance takes is refused at create: a poll beside media; over the default limit at the dry run', async () => {
    const account = await s.connect();
    const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts: [account.id], containers: [{ content: 'x', media: [await photo('p.jpg')] }], mastodon: { poll: { options: ['a', 'b'], expiresIn: 3600 } } } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.details[0].message, /Mastodon takes media or a poll on a status, not both/);
    // 477 letters and one long link (23) make 500: accepted; one more is refused by the dry run.
    const fits = `${'a'.repeat(476)} https://example.com/${'p'.repeat(200)}`;
    const ok = await s.h.server.request('POST', '/v1/posts?dry_run=true', { key: s.org.key, body: { accounts: [account.id], containers: [{ content: fits }] } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const over = await s.h.server.request('POST', '/v1/posts?dry_run=true', { key: s.org.key, body: { accounts: [account.id], containers: [{ content: `a${fits}` }] } });
    assert.match(JSON.stringify(over.body), /501 characters as Mastodon counts them/);
  });

  it('429: the destination waits until X-RateLimit-Reset, then publishes once', async () => {
    const account = await s.connect();
    s.masto.rateLimitNext(1, 1500);
    const started = Date.now();
    publishedDestination(await s.publish(account, { containers: [{ content: 'after the limit' }] }));
    assert.ok(Date.now() - started >= 1000, 'waited for the reset the instance named');
    assert.deepEqual(statuses(account).map((status) => status.text), ['after the limit']);
  });

  it('a revoked token: the destination fails saying so, and the account is disconnected', async () => {
    const account = await s.connect();
    s.masto.revokeToken(account.remote.id);
    const dest = destination(await s.publish(account, { containers: [{ content: 'nobody will see this' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^mastodon: the instance refused the access token \(The access token was revoked\)/);
    assert.deepEqual(statuses(account), []);
    const row = (await s.h.server.db.query('SELECT is_active FROM social_accounts WHERE id = $1', [decodeId(account.id)])).rows[0];
    assert.equal(row.is_active, false);
  });

  it('a token without the write scope: the destination fails naming the scopes to ask for, and the account is disconnected', async () => {
    const remote = s.masto.addAccount({ username: 'reader', scopes: ['read'] });
    const res = await s.h.server.request('POST', '/v1/social-accounts/mastodon', { key: s.org.key, body: { instanceUrl: s.masto.url, accessToken: remote.token } });
    assert.equal(res.status, 200, 'a read token connects: verify_credentials needs only read');
    const dest = destination(await s.publish({ id: res.body.data.id, network: 'mastodon', username: 'reader', remote } as unknown as Connected, { containers: [{ content: 'cannot' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^mastodon: the access token lacks a scope Crier needs \(This action is outside the authorized scopes\); make a token with the scopes read and write/);
    const row = (await s.h.server.db.query('SELECT is_active FROM social_accounts WHERE id = $1', [decodeId(res.body.data.id)])).rows[0];
    assert.equal(row.is_active, false);
  });

  it('a video: processed in the background like every video, waited for, then posted', async () => {
    const account = await s.connect();
    const video = await paddedVideo(100_000);
    publishedDestination(await s.publish(account, { containers: [{ content: 'a clip', media: [{ url: await s.upload('clip.mp4', video, 'video/mp4'), filename: 'clip.mp4' }] }] }));
    const [status] = statuses(account);
    const media = s.masto.media(status!.mediaIds[0]!)!;
    assert.deepEqual([media.type, media.size, media.pendingPolls], ['video', video.length, 0]);
  });

  it('a file the instance fails to process: the destination fails as media rejected; no status', async () => {
    const account = await s.connect();
    s.masto.holdProcessing(true);
    const postId = await s.create(account, { containers: [{ content: 'broken', media: [await photo('broken.jpg')] }] });
    try {
      const media = await until(async () => s.masto.mediaOf(account.remote.id)[0], 20_000);
      s.masto.failProcessing(media.id);
    } finally {
      s.masto.holdProcessing(false);
    }
    const dest = destination(await s.h.stack.waitForPost(s.org, postId, undefined, 30_000));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^mastodon: the instance could not process file \d+ \(Error processing thumbnail for uploaded media\)/);
    assert.deepEqual(statuses(account), []);
  });

  it('an account stored with an instance at a private address: the guard refuses it at publish, with a short reason; nothing dialled', async () => {
    let connections = 0;
    const internal = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"internal-secret"}'));
    internal.on('connection', () => connections++);
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
      const stored = await s.h.server.addAccount(s.org, 'mastodon', 'inside@127.0.0.1', { networkUniqueId: '127.0.0.1:1', serviceUrl: url, credential: 'token' });
      const dest = destination(await s.h.stack.waitForPost(s.org, await s.create({ ...stored, remote: undefined } as unknown as Connected, { containers: [{ content: 'to an internal address' }] })));
      assert.equal(dest.status, 'failed');
      assert.match(dest.error, /^mastodon: the instance's address was refused \(only https URLs are allowed \(got http:\)\)/);
      assert.ok(!dest.error.includes('internal-secret'));
      assert.equal(connections, 0);
    } finally {
      await new Promise<void>((resolve) => internal.close(() => resolve()));
    }
  });
});
