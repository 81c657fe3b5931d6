// The `edit` capability of Mastodon (src/networks/mastodon/edit.ts), called with a session against the
// Mastodon emulator: PUT /api/v1/statuses/:id replaces a status with what it carries, so the new text
// goes with the content warning, sensitivity, language, media and poll the status had; only the
// statuses given a text change; a status gone, or not the account's, changes nothing; the instance's
// refusal of a text is `invalid`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import { mastodonCapabilities } from '../../../src/networks/mastodon/capabilities.ts';
import { PublishError } from '../../../src/core/errors.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PNG_1X1 } from '../../helpers/publishing.ts';
import { instanceCall, publish, sessionOf, startInstance } from './setup.ts';

let masto: MastodonEmulator;
let caps: ReturnType<typeof mastodonCapabilities>;

before(async () => {
  masto = await startInstance();
  caps = mastodonCapabilities(masto.url);
});
after(() => masto.close());

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PublishError, `a PublishError, got ${String(error)}`);
  return error;
};
const postOf = (id: string): PublishedPost => ({ root: { platformId: id, url: '' }, parts: [{ platformId: id, url: '' }], block: {} });

describe('editing a Mastodon post', () => {
  it('only the statuses given a text change; edited_at is set', async () => {
    const { remote, session } = sessionOf(masto);
    const post = await publish(masto, session, ['root stays', 'second, with a typo']);
    await caps.edit!(session, post, [undefined, 'second, corrected']);
    const [root, second] = masto.statusesOf(remote.id);
    assert.deepEqual([root!.text, root!.editedAt ?? null], ['root stays', null]);
    assert.equal(second!.text, 'second, corrected');
    assert.ok(second!.editedAt);
    assert.equal(second!.inReplyToId, post.root.platformId);
  });

  it('the content warning, sensitivity, language, media and poll stay', async () => {
    const { remote, session } = sessionOf(masto);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'pixel.png');
    form.append('description', 'one pixel');
    const media = await instanceCall(masto, remote.token, '/api/v2/media', { method: 'POST', form });
    const withMedia = await instanceCall(masto, remote.token, '/api/v1/statuses', { method: 'POST', json: { status: 'a picture', media_ids: [media.body.id], spoiler_text: 'spoilers', sensitive: true, language: 'de', visibility: 'unlisted' } });
    const withPoll = await instanceCall(masto, remote.token, '/api/v1/statuses', { method: 'POST', json: { status: 'choose', poll: { options: ['yes', 'no'], expires_in: 3600, multiple: true, hide_totals: true } } });
    const pollBefore = masto.statusesOf(remote.id).find((s) => s.id === withPoll.body.id)!.poll!;

    await caps.edit!(session, postOf(withMedia.body.id), ['a picture, described']);
    await caps.edit!(session, postOf(withPoll.body.id), ['choose wisely']);

    const [pictured, polled] = masto.statusesOf(remote.id);
    assert.deepEqual(
      [pictured!.text, pictured!.spoilerText, pictured!.sensitive, pictured!.language, pictured!.mediaIds, pictured!.visibility],
      ['a picture, described', 'spoilers', true, 'de', [media.body.id], 'unlisted'],
    );
    assert.equal(polled!.text, 'choose wisely');
    assert.deepEqual([polled!.poll!.id, polled!.poll!.options, polled!.poll!.multiple, polled!.poll!.hideTotals], [pollBefore.id, ['yes', 'no'], true, true]);
    assert.ok(Math.abs(Date.parse(polled!.poll!.expiresAt) - Date.parse(pollBefore.expiresAt)) < 5_000, 'the poll ends when it did');
  });

  it('a status gone: not_found, and no other status of the post changed', async () => {
    const { remote, session } = sessionOf(masto);
    const post = await publish(masto, session, ['root', 'second']);
    await instanceCall(masto, remote.token, `/api/v1/statuses/${post.parts[1]!.platformId}`, { method: 'DELETE' });
    const error = await refusal(caps.edit!(session, post, ['new root', 'new second']));
    assert.equal(error.code, 'not_found');
    assert.equal(masto.statusesOf(remote.id)[0]!.text, 'root');
  });

  it("another account's status is not found; a text the instance refuses is invalid", async () => {
    const mine = sessionOf(masto);
    const theirs = sessionOf(masto, 'other');
    const post = await publish(masto, theirs.session, ['theirs']);
    assert.equal((await refusal(caps.edit!(mine.session, post, ['mine now']))).code, 'not_found');
    assert.equal(masto.statusesOf(theirs.remote.id)[0]!.text, 'theirs');
    const own = await publish(masto, mine.session, ['short']);
    const tooLong = await refusal(caps.edit!(mine.session, own, ['x'.repeat(501)]));
    assert.deepEqual([tooLong.code, tooLong.message], ['invalid', 'mastodon: Validation failed: Text character limit of 500 exceeded']);
  });
});
