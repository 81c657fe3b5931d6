// What each of TikTok's refusals becomes for a destination, over real HTTP against the emulator: its
// error codes in the v2 envelope (with the log id TikTok's support asks for), each classified with its
// reason — retried later (rate limits, server errors), failed for good (caps, an unaudited app, an
// unverified photo domain, a privacy mismatch, TikTok's FAILED with its fail_reason), or the token
// refused and the account disconnected.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { makeJpeg, paddedVideo } from '../../helpers/media.ts';
import { until } from '../../helpers/until.ts';
import { MB, startTikTokStack, type Creator, type TikTokStack } from './setup.ts';

describe('TikTok\'s refusals, classified', () => {
  let s: TikTokStack;
  let video: Buffer;
  let jpeg: Buffer;

  before(async () => {
    s = await startTikTokStack({ env: { CRIER_TIKTOK_CREATOR_CAP: '100' } });
    video = await paddedVideo(1 * MB);
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const videoBody = async (tiktok: object = {}) => ({ containers: [{ content: 'v', media: [{ url: await s.upload('v.mp4', video, 'video/mp4'), filename: 'v.mp4' }] }], tiktok });
  const direct = (privacyLevel = 'SELF_ONLY') => videoBody({ postMode: 'DIRECT_POST', privacyLevel });
  const failedWith = async (creator: Creator, body: object) => {
    const dest = (await s.publish(creator, body)).socialAccounts[0];
    assert.equal(dest.status, 'failed', JSON.stringify(dest));
    return dest.error as string;
  };
  /** The attempt that ended as a retry, and when the target is due again (ms from now). */
  const retried = async (postId: string) => {
    const row = await until(async () => {
      const { rows } = await s.h.server.db.query(
        `SELECT t.id, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      );
      return rows[0];
    });
    return { targetId: row.id as number, error: row.error as string, inMs: new Date(row.due_at).getTime() - Date.now() };
  };
  const dueNow = async (targetId: number) => {
    await s.h.server.db.query('UPDATE targets SET due_at = now() WHERE id = $1', [targetId]);
    const { notifyDue } = await import('../../../src/publishing/queue.ts');
    await notifyDue(s.h.server.db);
  };

  it('rate_limit_exceeded (429, 6 inits a minute per token) is retried a minute later, then published', async () => {
    const ann = await s.addCreator('ann.busy');
    s.tt.setRateLimits({ init: 1 });
    try {
      assert.equal((await s.publish(ann, await videoBody())).socialAccounts[0].status, 'published');
      const postId = await s.create(ann, await videoBody());
      const retry = await retried(postId);
      assert.match(retry.error, /^tiktok: rate limited \(The API rate limit was exceeded\. Please try again later\. \(rate_limit_exceeded\) \[log_id \w+\]\)$/);
      assert.ok(retry.inMs > 55_000 && retry.inMs <= 60_000, `due again in ${retry.inMs} ms`);
      s.tt.setRateLimits({ init: 0 });
      await dueNow(retry.targetId);
      assert.equal((await s.h.stack.waitForPost(s.org, postId, undefined, 30_000)).socialAccounts[0].status, 'published');
    } finally {
      s.tt.setRateLimits({ init: 6 });
    }
  });

  it('a server error (internal_error) on a status fetch is retried, and the post completes once', async () => {
    const ben = await s.addCreator('ben.flaky');
    s.tt.failNext({ status: 500, method: 'POST', path: '/v2/post/publish/status/fetch/' });
    const dest = (await s.publish(ben, await videoBody())).socialAccounts[0];
    assert.equal(dest.status, 'published', dest.error);
    assert.equal(s.tt.inits().filter((i) => i.openId === ben.openId).length, 1, 'one init');
  });

  it('FAILED with TikTok\'s fail_reason', async () => {
    const cy = await s.addCreator('cy.fails');
    s.tt.failNextPublish('frame_rate_check_failed');
    assert.equal(await failedWith(cy, await videoBody()), 'tiktok: TikTok could not publish the post (FAILED: frame_rate_check_failed)');
  });

  it('spam_risk_too_many_posts: the creator\'s daily cap', async () => {
    const dee = await s.addCreator('dee.daily');
    s.tt.setCreatorDailyPosts(0);
    try {
      assert.match(await failedWith(dee, await direct()), /^tiktok: the creator reached TikTok's daily cap on posts made through apps \(.*\(spam_risk_too_many_posts\) \[log_id \w+\]\); post again tomorrow$/);
    } finally {
      s.tt.setCreatorDailyPosts(15);
    }
  });

  it('spam_risk_too_many_pending_share: too many drafts waiting in the creator\'s inbox; failed, saying what frees a slot', async () => {
    const pat = await s.addCreator('pat.pending');
    s.tt.setPendingShareCap(1);
    try {
      assert.equal((await s.publish(pat, await videoBody())).socialAccounts[0].status, 'published');
      assert.match(await failedWith(pat, await videoBody()),
        /^tiktok: the creator has too many drafts waiting in their TikTok inbox \(.*\(spam_risk_too_many_pending_share\) \[log_id \w+\]\); they finish or delete some in the TikTok app, then post again$/);
      s.tt.postFromInbox(s.tt.publishes().find((p) => p.openId === pat.openId && p.status === 'SEND_TO_USER_INBOX')!.publishId);
      assert.equal((await s.publish(pat, await videoBody())).socialAccounts[0].status, 'published', 'a draft finished in the app frees its slot');
    } finally {
      s.tt.setPendingShareCap(5);
    }
  });

  it('unaudited_client_can_only_post_to_private_accounts: a public account through an unaudited app; a private one posts', async () => {
    const pub = await s.addCreator('ed.public');
    const priv = await s.addCreator('flo.private', { privateAccount: true });
    s.tt.setUnaudited(true);
    try {
      assert.match(await failedWith(pub, await direct()), /^tiktok: the app is not audited by TikTok, so it may post only to private accounts: .*\(unaudited_client_can_only_post_to_private_accounts\)/);
      assert.equal((await s.publish(priv, await direct())).socialAccounts[0].status, 'published');
    } finally {
      s.tt.setUnaudited(false);
    }
  });

  it('reached_active_user_cap from TikTok itself (its cap below Crier\'s)', async () => {
    const gil = await s.addCreator('gil.late');
    s.tt.setCreatorCap(s.tt.activeCreators().length);
    try {
      assert.match(await failedWith(gil, await direct()), /^tiktok: reached_active_user_cap: TikTok's 24-hour cap on distinct creators direct-posting through this app is reached \(.*\(reached_active_user_cap\)/);
    } finally {
      s.tt.setCreatorCap(100);
    }
  });

  it('privacy_level_option_mismatch at init', async () => {
    const hal = await s.addCreator('hal.mismatch');
    s.tt.failNext({ status: 403, method: 'POST', path: '/v2/post/publish/video/init/', body: { data: {}, error: { code: 'privacy_level_option_mismatch', message: 'privacy_level is not an option.', log_id: '20261125000000ABCDEF' } } });
    assert.equal(await failedWith(hal, await direct('PUBLIC_TO_EVERYONE')),
      'tiktok: tiktok.privacyLevel is not one the creator may use now (privacy_level is not an option. (privacy_level_option_mismatch) [log_id 20261125000000ABCDEF])');
  });

  it('url_ownership_unverified: photos from a domain not verified for the app', async () => {
    const ivy = await s.addCreator('ivy.photos');
    s.tt.setVerifiedPrefixes(['https://media.example.com/']);
    try {
      const url = await s.upload('u.jpg', jpeg, 'image/jpeg');
      assert.match(await failedWith(ivy, { containers: [{ content: 'p', media: [{ url, filename: 'u.jpg' }] }] }),
        /^tiktok: TikTok downloads photos only from a domain or URL prefix verified for the app: verify PUBLIC_BASE_URL's domain in the TikTok developer portal \(.*\(url_ownership_unverified\)/);
    } finally {
      s.tt.setVerifiedPrefixes([`${s.h.front.url}/`]);
    }
  });

  it('a PNG photo is refused at creation, naming the account, before any call: TikTok takes JPEG and WebP only', async () => {
    const jo = await s.addCreator('jo.png');
    const url = await s.upload('x.png', Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png');
    const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts: [jo.id], containers: [{ content: 'p', media: [{ url, filename: 'x.png' }] }] } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body.details, [{ field: 'socialAccounts[0]', message: 'tiktok: x.png is not a JPEG or WebP photo; TikTok takes only those (no PNG)' }]);
    assert.equal(s.tt.inits().filter((i) => i.openId === jo.openId).length, 0);
  });

  it('access_token_invalid: the token is refused and the account disconnected', async () => {
    const kim = await s.addCreator('kim.revoked');
    s.tt.revokeUser(kim.openId);
    assert.match(await failedWith(kim, await videoBody()), /access token.*refused.*reconnect the account/);
    const account = await s.h.server.request('GET', `/v1/social-accounts/${kim.id}`, { key: s.org.key });
    assert.equal(account.body.data.isActive, 0);
  });
});
