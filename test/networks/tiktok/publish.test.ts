// Publishing to TikTok over real HTTP: Crier's API and worker, the TikTok emulator as the network
// (which downloads photo posts from Crier's media itself), and what Crier reports. Each test checks
// what TikTok received (inits with their bodies, chunks with their ranges and bytes, creator info
// calls) and what the destination became.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { makeJpeg, makeVideo, paddedVideo } from '../../helpers/media.ts';
import { MB, startTikTokStack, type Creator, type TikTokStack } from './setup.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const INBOX = '/v2/post/publish/inbox/video/init/';
const DIRECT = '/v2/post/publish/video/init/';
const PHOTO = '/v2/post/publish/content/init/';

describe('publishing to TikTok', () => {
  let s: TikTokStack;
  let ada: Creator;
  let jpeg: Buffer;

  before(async () => {
    s = await startTikTokStack({ env: { CRIER_TIKTOK_CREATOR_CAP: '100' } });
    ada = await s.addCreator('ada.codes');
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const destination = (post: any) => post.socialAccounts[0];
  const published = (post: any) => {
    assert.equal(destination(post).status, 'published', destination(post).error);
    return destination(post);
  };
  const initOf = (publishId: string) => s.tt.inits().find((i) => i.publishId === publishId)!;
  const publishOf = (publishId: string) => s.tt.publishes().find((p) => p.publishId === publishId)!;
  const videoPost = async (name: string, bytes: Buffer, extra: object = {}) =>
    ({ containers: [{ content: `video ${name}`, media: [{ url: await s.upload(name, bytes, 'video/mp4'), filename: name }] }], ...extra });

  it('by default a video goes to the creator\'s inbox in TikTok\'s chunks: published as the publish_id, the profile URL and a note', async () => {
    const bytes = await paddedVideo(21 * MB);
    const post = await s.publish(ada, await videoPost('inbox.mp4', bytes));
    const dest = published(post);
    assert.equal(dest.platformPostUrl, 'https://www.tiktok.com/@ada.codes');
    assert.match(dest.error, /^the video awaits the creator in their TikTok inbox \(publish_id v_pub_file~v2-1\.\w+\): they finish and post it in the TikTok app/);
    const init = initOf(dest.platformPostId);
    assert.equal(init.path, INBOX);
    assert.deepEqual(init.body, { source_info: { source: 'FILE_UPLOAD', video_size: 21 * MB, chunk_size: 10 * MB, total_chunk_count: 2 } });
    const chunks = s.tt.chunks(dest.platformPostId);
    assert.deepEqual(chunks.map((c) => [c.first, c.last, c.total, c.contentType, c.status]), [
      [0, 10 * MB - 1, 21 * MB, 'video/mp4', 206],
      [10 * MB, 21 * MB - 1, 21 * MB, 'video/mp4', 201],
    ]);
    assert.equal(publishOf(dest.platformPostId).video!.sha256, sha256(bytes), 'TikTok received the video exactly');
    assert.equal(publishOf(dest.platformPostId).status, 'SEND_TO_USER_INBOX');
    assert.equal(s.tt.creatorInfoCalls().length, 0, 'an inbox draft needs no creator info');
    assert.equal(s.tt.statusPolls(dest.platformPostId).filter((p) => p.status === 'PROCESSING_UPLOAD' && p.at < chunks[1]!.at).length, 0, 'no status fetch between chunks sent by one worker');
  });

  it('a video under 5 MB goes whole, as one chunk of its own size', async () => {
    const bytes = await paddedVideo(3 * MB);
    const dest = published(await s.publish(ada, await videoPost('small.mp4', bytes)));
    assert.deepEqual((initOf(dest.platformPostId).body as any).source_info, { source: 'FILE_UPLOAD', video_size: 3 * MB, chunk_size: 3 * MB, total_chunk_count: 1 });
    assert.deepEqual(s.tt.chunks(dest.platformPostId).map((c) => [c.first, c.last, c.status]), [[0, 3 * MB - 1, 201]]);
  });

  it('a direct post: creator info first, then every field of the block in post_info; the public post\'s URL', async () => {
    const bob = await s.addCreator('bob.films');
    const post = await s.publish(bob, await videoPost('direct.mp4', await paddedVideo(2 * MB), {
      tiktok: {
        content: 'Caption #fyp', postMode: 'DIRECT_POST', privacyLevel: 'FOLLOWER_OF_CREATOR', disableComment: true, disableDuet: true,
        disableStitch: false, videoCoverTimestampMs: 1500, brandContentToggle: true, brandOrganicToggle: false, isAigc: true,
      },
    }));
    const dest = published(post);
    const tiktokPost = s.tt.publishes().find((p) => p.postId === dest.platformPostId)!;
    assert.equal(dest.platformPostUrl, `https://www.tiktok.com/@bob.films/video/${tiktokPost.postId}`);
    assert.equal(dest.error ?? null, null, 'nothing to note');
    const init = initOf(tiktokPost.publishId);
    assert.equal(init.path, DIRECT);
    assert.deepEqual((init.body as any).post_info, {
      title: 'Caption #fyp', privacy_level: 'FOLLOWER_OF_CREATOR', disable_comment: true, disable_duet: true, disable_stitch: false,
      brand_content_toggle: true, brand_organic_toggle: false, is_aigc: true, video_cover_timestamp_ms: 1500,
    });
    const infoCall = s.tt.creatorInfoCalls().find((c) => c.openId === bob.openId)!;
    assert.ok(infoCall.at <= init.at, 'creator_info was asked before the init');
    const { rows } = await s.h.server.db.query(`SELECT subject, org_id FROM network_ledger WHERE network = 'tiktok' AND pool = 'direct_post_creators' AND subject = $1`, [bob.openId]);
    assert.deepEqual(rows.map((r) => Number(r.org_id)), [s.org.orgId], 'the creator is counted under the cap');
  });

  it('a public post\'s id is TikTok\'s int64 to the last digit (a JSON number a JS number would round): its id and URL', async () => {
    const ivo = await s.addCreator('ivo.digits');
    // 7663542984343883021 as a JS number is 7663542984343883000.
    s.tt.nextPostId('7663542984343883021');
    const dest = published(await s.publish(ivo, await videoPost('int64.mp4', await paddedVideo(1 * MB), { tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' } })));
    assert.equal(dest.platformPostId, '7663542984343883021');
    assert.equal(dest.platformPostUrl, 'https://www.tiktok.com/@ivo.digits/video/7663542984343883021');
  });

  it('a direct post left unset follows the creator\'s settings; SELF_ONLY gets no public id: the profile URL and a note', async () => {
    const cat = await s.addCreator('cat.private', { commentDisabled: true, duetDisabled: true, stitchDisabled: true });
    const post = await s.publish(cat, await videoPost('self.mp4', await paddedVideo(1 * MB), { tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY' } }));
    const dest = published(post);
    assert.match(dest.platformPostId, /^v_pub_file~v2-1\./);
    assert.equal(dest.platformPostUrl, 'https://www.tiktok.com/@cat.private');
    assert.match(dest.error, /TikTok published it without a public post id \(a SELF_ONLY post/);
    const info = (initOf(dest.platformPostId).body as any).post_info;
    assert.deepEqual([info.title, info.disable_comment, info.disable_duet, info.disable_stitch, info.is_aigc, 'video_cover_timestamp_ms' in info], ['video self.mp4', true, true, true, false, false]);
  });

  it('a photo post by URL to the inbox: TikTok downloads Crier\'s media; title and description default to the text', async () => {
    const text = `${'Long caption '.repeat(8)}😀 end`;
    const urls = [await s.upload('a.jpg', jpeg, 'image/jpeg'), await s.upload('b.jpg', jpeg, 'image/jpeg')];
    const post = await s.publish(ada, { containers: [{ content: text, media: urls.map((url, i) => ({ url, filename: `p${i}.jpg` })) }] });
    const dest = published(post);
    assert.equal(dest.platformPostUrl, 'https://www.tiktok.com/@ada.codes');
    assert.match(dest.error, /^the photos await the creator in their TikTok inbox/);
    const init = initOf(dest.platformPostId);
    assert.equal(init.path, PHOTO);
    assert.deepEqual(init.body, {
      media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: { title: text.slice(0, 90), description: text },
      source_info: { source: 'PULL_FROM_URL', photo_images: urls, photo_cover_index: 0 },
    });
    assert.ok(urls.every((u) => u.startsWith(`${s.h.front.url}/`)), 'the URLs are Crier\'s own, at PUBLIC_BASE_URL');
    assert.deepEqual(publishOf(dest.platformPostId).photos!.map((p) => [p.ok, p.mime, p.bytes]), [[true, 'image/jpeg', jpeg.length], [true, 'image/jpeg', jpeg.length]]);
  });

  it('a direct photo post: title, description, comments, music and disclosures as TikTok names them; the photo URL', async () => {
    const dan = await s.addCreator('dan.pics');
    const url = await s.upload('c.jpg', jpeg, 'image/jpeg');
    const post = await s.publish(dan, {
      containers: [{ content: 'shared text', media: [{ url, filename: 'c.jpg' }] }],
      tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE', title: 'My title', description: 'My description', disableComment: true, autoAddMusic: true, brandContentToggle: false, brandOrganicToggle: true },
    });
    const dest = published(post);
    const photo = s.tt.publishes().find((p) => p.postId === dest.platformPostId)!;
    assert.equal(dest.platformPostUrl, `https://www.tiktok.com/@dan.pics/photo/${photo.postId}`);
    assert.deepEqual((initOf(photo.publishId).body as any).post_info, {
      title: 'My title', description: 'My description', privacy_level: 'PUBLIC_TO_EVERYONE', disable_comment: true,
      auto_add_music: true, brand_content_toggle: false, brand_organic_toggle: true,
    });
  });

  it('a thread: TikTok takes no replies, so later containers are not published, and the note says so', async () => {
    const post = await s.publish(ada, { containers: [
      { content: 'root', media: [{ url: await s.upload('t.mp4', await paddedVideo(1 * MB), 'video/mp4'), filename: 't.mp4' }] },
      { content: 'a reply' }, { content: 'another' },
    ] });
    const dest = published(post);
    assert.match(dest.error, /; TikTok takes no replies through its API: the 2 later containers were not published$/);
    assert.equal(s.tt.inits().filter((i) => i.publishId === dest.platformPostId).length, 1);
    const { rows } = await s.h.server.db.query(
      'SELECT p.position, p.platform_id FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = $1 ORDER BY p.position', [decodeId(post.id)],
    );
    assert.deepEqual(rows.map((r) => r.platform_id), [dest.platformPostId, dest.platformPostId, dest.platformPostId]);
  });

  describe('checked against creator_info before anything is sent', () => {
    const refused = async (creator: Creator, body: object) => {
      const initsBefore = s.tt.inits().length;
      const dest = destination(await s.publish(creator, body));
      assert.equal(dest.status, 'failed');
      assert.equal(s.tt.inits().length, initsBefore, 'no init was sent');
      return dest.error as string;
    };

    it('a privacy level TikTok does not offer the creator', async () => {
      const eve = await s.addCreator('eve.private', { privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'] });
      const error = await refused(eve, await videoPost('p.mp4', await paddedVideo(1 * MB), { tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' } }));
      assert.equal(error, 'tiktok: tiktok.privacyLevel: PUBLIC_TO_EVERYONE is not offered to @eve.private now; TikTok offers FOLLOWER_OF_CREATOR, SELF_ONLY');
    });

    it('an interaction the creator turned off, asked on', async () => {
      const fay = await s.addCreator('fay.quiet', { commentDisabled: true, duetDisabled: true });
      const body = async (field: string) => videoPost('i.mp4', await paddedVideo(1 * MB), { tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY', [field]: false } });
      assert.match(await refused(fay, await body('disableComment')), /^tiktok: tiktok\.disableComment: comments are turned off in @fay\.quiet's TikTok settings/);
      assert.match(await refused(fay, await body('disableDuet')), /^tiktok: tiktok\.disableDuet: duets are turned off/);
    });

    it('branded content made private: refused at creation, before any call (TikTok: branded content cannot be private)', async () => {
      const hu = await s.addCreator('hu.brand');
      const body = await videoPost('b.mp4', await paddedVideo(1 * MB), { tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY', brandContentToggle: true } });
      const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts: [hu.id], ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body.details, [{ field: 'socialAccounts[0]', message: 'tiktok: tiktok.brandContentToggle: branded content cannot be private on TikTok; choose a privacyLevel other than SELF_ONLY, or leave brandContentToggle off' }]);
      assert.equal(s.tt.creatorInfoCalls().filter((c) => c.openId === hu.openId).length, 0);
      assert.equal(s.tt.inits().filter((i) => i.openId === hu.openId).length, 0);
    });

    it('a video longer than the creator may post', async () => {
      const gus = await s.addCreator('gus.short', { maxVideoPostDurationSec: 2 });
      const video = await makeVideo({ seconds: 4, size: '160x120', rate: 10 });
      const error = await refused(gus, await videoPost('long.mp4', video, { tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY' } }));
      assert.equal(error, 'tiktok: containers[0].media[0]: the video is 4 s long; @gus.short may post videos of at most 2 s (max_video_post_duration_sec)');
    });
  });
});
