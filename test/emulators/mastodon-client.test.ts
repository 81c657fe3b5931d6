// masto.js (the most used Mastodon client for JavaScript: https://github.com/neet/masto.js), unchanged,
// against the Mastodon emulator: it takes any instance URL (`createRestAPIClient({url})`), so it reaches
// the emulator as it would mastodon.social. Verify credentials, upload an image and let masto wait for
// its processing (it polls GET /api/v1/media/:id until `url` is set), post it, reply, send a status
// twice under one Idempotency-Key, read the account's statuses, delete, a documented error; read a
// status's context, edit it, and page the account's statuses by the Link header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRestAPIClient, MastoHttpError, type mastodon } from 'masto';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../emulators/mastodon/server.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';

let emulator: MastodonEmulator;
let account: Account;
let masto: mastodon.rest.Client;

before(async () => {
  emulator = await startMastodonEmulator();
  account = emulator.addAccount({ username: 'masto_js', displayName: 'masto.js' });
  masto = createRestAPIClient({ url: emulator.url, accessToken: account.token, mediaTimeout: 10_000 });
});
after(() => emulator.close());

describe('masto.js against the Mastodon emulator', () => {
  test('verify credentials: the token\'s account', async () => {
    const me = await masto.v1.accounts.verifyCredentials();
    assert.deepEqual([me.id, me.username, me.acct, me.displayName], [account.id, 'masto_js', 'masto_js', 'masto.js']);
    assert.equal(typeof me.source.privacy, 'string');
  });

  test('the instance\'s limits as masto reads them', async () => {
    const instance = await masto.v2.instance.fetch();
    assert.equal(instance.configuration.statuses.maxCharacters, 500);
    assert.equal(instance.configuration.polls.maxOptions, 4);
  });

  test('an image processed in the background: masto waits for it, then posts it with a reply, and deletes both', async () => {
    emulator.processInBackground(1);
    const media = await masto.v2.media.create({ file: new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), description: 'one pixel' });
    emulator.processInBackground(0);
    assert.ok(media.url, 'masto returned once processed');
    assert.equal(media.description, 'one pixel');
    const status = await masto.v1.statuses.create({ status: 'from masto.js', mediaIds: [media.id], spoilerText: 'a pixel', visibility: 'unlisted' });
    assert.deepEqual([status.content, status.spoilerText, status.visibility, status.mediaAttachments.map((m) => m.id)], ['<p>from masto.js</p>', 'a pixel', 'unlisted', [media.id]]);
    const reply = await masto.v1.statuses.create({ status: 'and a reply', inReplyToId: status.id });
    assert.equal(reply.inReplyToId, status.id);
    const listed = await masto.v1.accounts.$select(account.id).statuses.list({ limit: 40 });
    assert.deepEqual(listed.map((s) => s.id), [reply.id, status.id]);
    const deleted = await masto.v1.statuses.$select(reply.id).remove();
    assert.equal(deleted.text, 'and a reply');
    await masto.v1.statuses.$select(status.id).remove();
    assert.deepEqual(emulator.statusesOf(account.id).map((s) => s.deleted), [true, true]);
  });

  test('the same Idempotency-Key twice: one status, the same answer', async () => {
    const meta = { requestInit: { headers: { 'Idempotency-Key': 'masto-key-1' } } };
    const first = await masto.v1.statuses.create({ status: 'once' }, meta);
    const again = await masto.v1.statuses.create({ status: 'once' }, meta);
    assert.equal(again.id, first.id);
    assert.equal(emulator.statusesOf(account.id).filter((s) => s.text === 'once').length, 1);
  });

  test('a refusal reaches masto as the documented error: 422 with the error text', async () => {
    await assert.rejects(masto.v1.statuses.create({ status: 'x'.repeat(501) }), (error: unknown) => {
      assert.ok(error instanceof MastoHttpError);
      assert.equal(error.statusCode, 422);
      assert.equal(error.message, 'Validation failed: Text character limit of 500 exceeded');
      return true;
    });
  });
  test('a conversation: masto reads the context of a status, edits it, and pages the account\'s statuses by the Link header', async () => {
    const root = await masto.v1.statuses.create({ status: 'conversation root' });
    const friend = emulator.addAccount({ username: 'friend' });
    const comment = emulator.reply(friend.id, root.id, 'a comment');
    const answer = await masto.v1.statuses.create({ status: '@friend an answer', inReplyToId: comment.id });
    const context = await masto.v1.statuses.$select(root.id).context.fetch();
    assert.deepEqual([context.ancestors, context.descendants.map((s) => [s.id, s.inReplyToId, s.account.acct])], [[], [[comment.id, root.id, 'friend'], [answer.id, comment.id, 'masto_js']]]);

    const edited = await masto.v1.statuses.$select(root.id).update({ status: 'conversation root, edited' });
    assert.deepEqual([edited.id, edited.content, typeof edited.editedAt], [root.id, '<p>conversation root, edited</p>', 'string']);

    const pages: string[][] = [];
    for await (const page of masto.v1.accounts.$select(account.id).statuses.list({ limit: 2 })) pages.push(page.map((s) => s.id));
    const all = emulator.statusesOf(account.id).filter((s) => !s.deleted).map((s) => s.id).reverse();
    assert.deepEqual(pages.flat(), all);
    assert.ok(pages.length >= 2 && pages.every((p) => p.length <= 2));
  });
});
