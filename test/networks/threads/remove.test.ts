// Deleting a published Threads post through Crier's `remove` capability, over real HTTP against the
// emulator: every container Crier published, later ones first (deleting a root leaves its replies),
// others' replies untouched; 'absent' once gone; the 100-a-day delete limit checked before any delete;
// a token without threads_delete refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PublishError } from '../../../src/core/errors.ts';
import { engagementSetup, type EngagementSetup, type Profile } from './setup.ts';

describe('Threads remove', () => {
  let s: EngagementSetup;
  let ada: Profile;

  before(async () => {
    s = await engagementSetup({ deleteQuotaTotal: 6 });
    ada = s.profile('ada_remove');
  });
  after(() => s.close());

  it('deletes every container of the thread, the last first, and leaves others\' replies', async () => {
    const post = await s.publish(ada, ['root', 'second', 'third']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'keep me' });
    const from = s.th.calls().length;
    assert.equal(await s.caps.remove!(ada.session, post), 'removed');
    const calls = s.callsSince(from);
    const [root, second, third] = post.parts.map((p) => p.platformId);
    assert.deepEqual(calls.map((c) => `${c.method} ${c.path}`), [
      `GET /v1.0/${ada.userId}/threads_publishing_limit`, `DELETE /v1.0/${third}`, `DELETE /v1.0/${second}`, `DELETE /v1.0/${root}`,
    ]);
    assert.equal(calls[0]!.params.fields, 'delete_quota_usage,delete_config');
    assert.deepEqual(s.th.deleted().map((d) => d.mediaId), [third, second, root]);
    assert.ok(s.th.published().some((m) => m.id === bob.id), 'bob\'s reply is not the account\'s to delete');
  });

  it('answers absent for a post already gone, and finishes a half-deleted one', async () => {
    const post = await s.publish(ada, ['twice', 'tail']);
    assert.equal(await s.caps.remove!(ada.session, { ...post, parts: [post.root] }), 'removed');
    assert.equal(await s.caps.remove!(ada.session, post), 'absent');
    assert.ok(!s.th.published().some((m) => m.id === post.parts[1]!.platformId), 'the tail was deleted on the second call');
  });

  it('stops before deleting anything when the delete limit cannot cover the whole post', async () => {
    const post = await s.publish(ada, ['a', 'b', 'c']);
    const before = s.th.deleted().length;
    assert.equal(before, 5, 'the earlier tests made 5 of the 6 deletes this emulator allows');
    await assert.rejects(s.caps.remove!(ada.session, post), (e: PublishError) => e instanceof PublishError && e.kind === 'retryable' && e.code === 'quota' && /deletions Threads allows/.test(e.message));
    assert.equal(s.th.deleted().length, before);
    assert.ok(s.th.published().some((m) => m.id === post.root.platformId));
  });

  it('deletes anyway when the limit cannot be read (the check is advisory; DELETE enforces the limit itself)', async () => {
    const bea = s.profile('bea_remove');
    const post = await s.publish(bea, ['unchecked']);
    s.th.failNext({ status: 400, body: { error: { message: '(#100) Tried accessing nonexisting field (delete_quota_usage)', type: 'THApiException', code: 100 } }, path: `/v1.0/${bea.userId}/threads_publishing_limit` });
    assert.equal(await s.caps.remove!(bea.session, post), 'removed');
    assert.equal(s.th.deleted().at(-1)!.mediaId, post.root.platformId);
  });

  it('a token without threads_delete is refused as forbidden', async () => {
    const eve = s.profile('eve_remove', ['threads_basic', 'threads_content_publish']);
    const post = await s.publish(eve, ['cannot delete']);
    await assert.rejects(s.caps.remove!(eve.session, post), (e: PublishError) => e.kind === 'permanent' && e.code === 'forbidden' && /threads_delete/.test(e.message));
  });
});
