// A dry run of a TikTok direct post asks TikTok for the creator's settings (creator_info), as
// publishing would, and says what they forbid: a privacy level not offered now, comments turned on
// when the creator turned them off. An inbox draft asks nothing; TikTok failing to answer is a note,
// not a refusal. Nothing is stored or sent to TikTok beyond creator_info.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows } from '../../helpers/harness.ts';
import { startTikTokStack, type Creator, type TikTokStack } from './setup.ts';

describe('a dry run of a TikTok direct post', () => {
  let s: TikTokStack;
  let guarded: Creator;
  let open: Creator;

  before(async () => {
    s = await startTikTokStack({ worker: false });
    guarded = await s.addCreator('guarded.one', { privacyLevelOptions: ['SELF_ONLY', 'FOLLOWER_OF_CREATOR'], commentDisabled: true });
    open = await s.addCreator('open.one');
  });
  after(async () => s.close());

  const video = { url: 'https://cdn.example.com/clip.mp4', filename: 'clip.mp4' };
  const dryRun = async (account: Creator, tiktok: object) => {
    const res = await s.h.server.request('POST', '/v1/posts?dry_run=true', { key: s.org.key, body: { accounts: [account.id], containers: [{ content: 'a clip', media: [video] }], tiktok } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.destinations[0];
  };
  const creatorCalls = (account: Creator) => s.tt.creatorInfoCalls().filter((c) => c.openId === account.openId).length;

  test('a privacy level the creator is not offered: not ok, naming the levels TikTok offers; asked once', async () => {
    const before = creatorCalls(guarded);
    const verdict = await dryRun(guarded, { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' });
    assert.equal(verdict.ok, false);
    assert.deepEqual(verdict.reasons, ['tiktok: tiktok.privacyLevel: PUBLIC_TO_EVERYONE is not offered to @guarded.one now; TikTok offers SELF_ONLY, FOLLOWER_OF_CREATOR']);
    assert.equal(creatorCalls(guarded) - before, 1);
  });

  test('comments asked on when the creator turned them off: not ok, saying so', async () => {
    const verdict = await dryRun(guarded, { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY', disableComment: false });
    assert.equal(verdict.ok, false);
    assert.match(verdict.reasons[0], /tiktok\.disableComment: comments are turned off in @guarded\.one's TikTok settings/);
  });

  test('branded content made private: refused as the create refuses it, whatever the creator allows, without asking TikTok', async () => {
    const before = creatorCalls(open);
    const res = await s.h.server.request('POST', '/v1/posts?dry_run=true', {
      key: s.org.key, body: { accounts: [open.id], containers: [{ content: 'a clip', media: [video] }], tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY', brandContentToggle: true } },
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body.details, [{ field: 'socialAccounts[0]', message: 'tiktok: tiktok.brandContentToggle: branded content cannot be private on TikTok; choose a privacyLevel other than SELF_ONLY, or leave brandContentToggle off' }]);
    assert.equal(creatorCalls(open), before);
  });

  test('what the creator allows: ok, no reasons, no notes; nothing stored, nothing sent but creator_info', async () => {
    const posts = await countRows(s.h.server.db, 'posts', s.org.orgId);
    const verdict = await dryRun(open, { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE', disableComment: false });
    assert.deepEqual([verdict.ok, verdict.reasons, verdict.notes], [true, [], undefined]);
    assert.equal(await countRows(s.h.server.db, 'posts', s.org.orgId), posts);
    assert.deepEqual(s.tt.inits(), [], 'no upload was started');
  });

  test('an inbox draft (the default postMode) does not ask TikTok', async () => {
    const before = creatorCalls(guarded);
    const verdict = await dryRun(guarded, {});
    assert.deepEqual([verdict.ok, verdict.reasons], [true, []]);
    assert.equal(creatorCalls(guarded), before);
  });

  test('TikTok not answering creator_info: ok with a note that publishing asks again', async () => {
    s.tt.failNext({ status: 500, method: 'POST', path: '/v2/post/publish/creator_info/query/' });
    const verdict = await dryRun(guarded, { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' });
    assert.deepEqual([verdict.ok, verdict.reasons], [true, []]);
    assert.equal(verdict.notes.length, 1);
    assert.match(verdict.notes[0], /^TikTok could not be asked about this account now \(.+\); publishing asks again$/);
  });
});
