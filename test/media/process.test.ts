// processMedia end to end: videos made by ffmpeg's test sources, uploaded through Crier, posted to the
// X emulator. A video X takes as it is goes out untouched and unbilled; one it does not take is
// re-encoded once into a rendition that ffprobe confirms is within X's profile, billed in 10-second
// blocks, cached, and served like media.
import assert from 'node:assert/strict';
import { writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { judge } from '../../src/media/conform.ts';
import { probeVideo, type VideoInfo } from '../../src/media/probe.ts';
import { VIDEO_PROFILES } from '../../src/media/profiles.ts';
import { createVideoProcessor } from '../../src/media/renditions.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { PNG_1X1, type PublishingStack } from '../helpers/publishing.ts';
import { makeVideo, startMediaPublishing, tools, type MediaHarness } from '../helpers/media.ts';

describe('processMedia', () => {
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;
  let posts = 0;
  // Not H.264: X refuses the codec, so any length of it needs a rendition, and a small one is cheap.
  const mpeg4 = (seconds: number) => makeVideo({ seconds, size: '320x240', rate: 15, codec: 'mpeg4' });

  before(async () => {
    // What is tested is the renditions, not X's processing of an upload: the emulator reports each
    // upload processed at once instead of after its default 3 s (about half this file's time).
    h = await startMediaPublishing({}, { x: { videoProcessing: { checkAfterSecs: 0, durationMs: 0 } } });
    org = await h.server.createOrg();
  });
  after(() => h.close());

  const post = async (accounts: string[], containers: { media: { url: string; filename: string }[] }[], processMedia = true) => {
    // Distinct texts: X refuses (and Crier adopts) a duplicate of the account's earlier post.
    const body = { accounts, processMedia, containers: containers.map((c, i) => ({ content: `part ${i + 1} of post ${++posts}`, ...c })) };
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return h.stack.waitForPost(org, created.body.post.id, undefined, 90_000);
  };
  const xMediaOf = (platformPostId: string) => {
    const tweet = h.stack.x.tweets().find((t) => t.id === platformPostId)!;
    return h.stack.x.media().find((m) => m.id === tweet.mediaIds[0])!;
  };
  const renditions = async () =>
    (await h.server.db.query<{ id: number; token: string; filename: string; profile: string; size: number; source_key: string }>(
      'SELECT id, token, filename, profile, size, source_key FROM renditions WHERE org_id = $1 ORDER BY id', [org.orgId],
    )).rows;
  const usage = async (query = '') => (await h.server.request('GET', `/v1/usage${query}`, { key: org.key })).body;
  /** ffprobe of what a URL serves. */
  const probeUrl = async (url: string): Promise<VideoInfo> => {
    const file = path.join(os.tmpdir(), `crier-probe-${process.pid}-${Date.now()}.mp4`);
    await writeFile(file, Buffer.from(await (await h.fetch(url)).arrayBuffer()));
    try {
      return await probeVideo(tools, file);
    } finally {
      await rm(file, { force: true });
    }
  };

  it('publishes a video that already meets the profile as supplied: no rendition, nothing billed', async () => {
    const video = await makeVideo({ seconds: 3, size: '640x360', rate: 30 });
    const media = await h.upload(org, 'fine.mp4', video);
    const x = await h.stack.addXAccount(org);
    const [onX] = (await post([x.id], [{ media: [{ url: media.url, filename: media.filename }] }])).socialAccounts;
    assert.equal(onX.status, 'published', onX.error);
    assert.equal(xMediaOf(onX.platformPostId).size, video.length, 'X received the original bytes');
    assert.deepEqual(await renditions(), []);
    assert.equal((await usage()).data.total_blocks, 0);
  });

  it('re-encodes a 1080p60 video into an X rendition that ffprobe confirms, publishes it, bills one block', async () => {
    const video = await makeVideo({ seconds: 2, size: '1920x1080', rate: 60 });
    const media = await h.upload(org, 'big.mp4', video);
    const x = await h.stack.addXAccount(org);
    const [onX] = (await post([x.id], [{ media: [{ url: media.url, filename: media.filename }] }])).socialAccounts;
    assert.equal(onX.status, 'published', onX.error);

    const [rendition, ...more] = await renditions();
    assert.equal(more.length, 0);
    assert.equal(rendition!.profile, 'x@1');
    assert.equal(rendition!.source_key, `media:${media.id}`);
    const url = `${h.front.url}/media/${rendition!.token}/big.mp4`;
    const served = await h.fetch(url, { method: 'HEAD' });
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'video/mp4');
    assert.equal(Number(served.headers.get('content-length')), rendition!.size);
    assert.equal(xMediaOf(onX.platformPostId).size, rendition!.size, 'X received the rendition');

    const info = await probeUrl(url);
    assert.deepEqual(
      [info.container, info.video!.codec, info.video!.width, info.video!.height, info.video!.fps, info.video!.pixFmt, info.audio!.codec],
      ['mp4', 'h264', 1280, 720, 60, 'yuv420p', 'aac'],
    );
    assert.deepEqual(judge(VIDEO_PROFILES.x, info), { fixable: [], unfixable: [] });

    const billed = await usage();
    assert.equal(billed.data.total_blocks, 1);
    assert.deepEqual(billed.data.items.map((i: any) => [i.rendition_id, i.profile, i.blocks, i.duration_seconds]), [[rendition!.id, 'x@1', 1, 2]]);
  });

  it('reuses a cached rendition: the same video to another X account makes and bills nothing new', async () => {
    const [rendition] = await renditions();
    const { rows } = await h.server.db.query<{ url: string }>("SELECT $1 || '/media/' || token || '/' || filename AS url FROM media WHERE id = (SELECT media_id FROM renditions WHERE id = $2)", [h.front.url, rendition!.id]);
    const x = await h.stack.addXAccount(org);
    const [onX] = (await post([x.id], [{ media: [{ url: rows[0]!.url, filename: 'big.mp4' }] }])).socialAccounts;
    assert.equal(onX.status, 'published', onX.error);
    assert.equal(xMediaOf(onX.platformPostId).size, rendition!.size);
    assert.equal((await renditions()).length, 1);
    assert.equal((await usage()).data.total_blocks, 1);
  });

  it('two X accounts in one post publish at once yet share one rendition, billed once', async () => {
    const before = { renditions: (await renditions()).length, blocks: (await usage()).data.total_blocks };
    const media = await h.upload(org, 'shared.mp4', await mpeg4(5));
    const [a, b] = [await h.stack.addXAccount(org), await h.stack.addXAccount(org)];
    const published = await post([a.id, b.id], [{ media: [{ url: media.url, filename: media.filename }] }]);
    for (const target of published.socialAccounts) assert.equal(target.status, 'published', target.error);
    const made = (await renditions()).filter((r) => r.source_key === `media:${media.id}`);
    assert.equal(made.length, 1);
    assert.deepEqual(published.socialAccounts.map((t: any) => xMediaOf(t.platformPostId).size), [made[0]!.size, made[0]!.size]);
    assert.equal((await renditions()).length, before.renditions + 1);
    assert.equal((await usage()).data.total_blocks, before.blocks + 1);
  });

  it('bills each rendition by output duration in 10-second blocks: 25 s is 3, 10 s is 1', async () => {
    const before = (await usage()).data;
    const long = await h.upload(org, 'long.mp4', await mpeg4(25));
    const short = await h.upload(org, 'short.mp4', await mpeg4(10));
    const x = await h.stack.addXAccount(org);
    const published = await post([x.id], [{ media: [{ url: long.url, filename: long.filename }] }, { media: [{ url: short.url, filename: short.filename }] }]);
    assert.equal(published.socialAccounts[0].status, 'published', published.socialAccounts[0].error);
    const after = await usage();
    assert.equal(after.data.total_renditions, before.total_renditions + 2);
    assert.equal(after.data.total_blocks, before.total_blocks + 4);
    const newest = after.data.items.slice(0, 2).map((i: any) => [i.source_url, i.blocks, i.duration_seconds]).sort();
    assert.deepEqual(newest, [[long.url, 3, 25], [short.url, 1, 10]].sort());
  });

  it('two profiles are two renditions, billed twice; a third request for one of them is a cache hit', async () => {
    const media = await h.upload(org, 'twice.mp4', await mpeg4(10));
    const before = (await usage()).data.total_blocks;
    const refuse = async () => assert.fail('own media is read from storage, never downloaded');
    const prepare = createVideoProcessor(h.server.config, h.server.db, refuse);
    const containers = [{ content: '', media: [{ url: media.url, filename: media.filename }] }];
    const forX = await prepare({ orgId: org.orgId, network: 'x', block: undefined, containers });
    const forBsky = await prepare({ orgId: org.orgId, network: 'bluesky', block: undefined, containers });
    const again = await prepare({ orgId: org.orgId, network: 'x', block: undefined, containers });
    assert.notEqual(forX[0]!.media[0]!.url, forBsky[0]!.media[0]!.url);
    assert.equal(again[0]!.media[0]!.url, forX[0]!.media[0]!.url);
    assert.equal((await usage()).data.total_blocks, before + 2);
    const profiles = (await renditions()).filter((r) => r.source_key === `media:${media.id}`).map((r) => r.profile).sort();
    assert.deepEqual(profiles, ['bluesky@1', 'x@1']);
    for (const prepared of [forX, forBsky]) {
      const info = await probeUrl(prepared[0]!.media[0]!.url);
      assert.equal(info.video!.codec, 'h264');
      assert.equal(info.durationMs, 10_000);
    }
  });

  it('re-encodes a video from any HTTPS URL (downloaded through the guard), keyed by its content', async () => {
    const bytes = await mpeg4(3);
    h.stack.media.route('/external.mp4', (_req, res) => { res.writeHead(200, { 'content-type': 'video/mp4' }); res.end(bytes); });
    const x = await h.stack.addXAccount(org);
    const [onX] = (await post([x.id], [{ media: [{ url: `${h.stack.media.url}/external.mp4`, filename: 'external.mp4' }] }])).socialAccounts;
    assert.equal(onX.status, 'published', onX.error);
    const made = (await renditions()).at(-1)!;
    assert.match(made.source_key, /^sha256:[0-9a-f]{64}$/);
    assert.equal(xMediaOf(onX.platformPostId).size, made.size);
  });

  it('without video, or without processMedia, inspects and bills nothing', async () => {
    const before = { renditions: (await renditions()).length, blocks: (await usage()).data.total_blocks };
    const image = await h.upload(org, 'still.png', PNG_1X1);
    const video = await makeVideo({ seconds: 2, size: '1920x1080', rate: 60, audio: false });
    const big = await h.upload(org, 'raw.mp4', video);
    const x = await h.stack.addXAccount(org);
    const [withImage] = (await post([x.id], [{ media: [{ url: image.url, filename: image.filename }] }])).socialAccounts;
    assert.equal(withImage.status, 'published', withImage.error);
    const [unprocessed] = (await post([x.id], [{ media: [{ url: big.url, filename: big.filename }] }], false)).socialAccounts;
    assert.equal(unprocessed.status, 'published', unprocessed.error);
    assert.equal(xMediaOf(unprocessed.platformPostId).size, video.length, 'published as supplied');
    assert.equal((await renditions()).length, before.renditions);
    assert.equal((await usage()).data.total_blocks, before.blocks);
  });

  it('a video no rendition can fix (too long for X) fails that destination with the reason, unbilled', async () => {
    const before = (await usage()).data.total_blocks;
    const long = await makeVideo({ seconds: 141, size: '64x64', rate: 1, codec: 'mpeg4', audio: false });
    const media = await h.upload(org, 'epic.mp4', long);
    const x = await h.stack.addXAccount(org);
    const [onX] = (await post([x.id], [{ media: [{ url: media.url, filename: media.filename }] }])).socialAccounts;
    assert.equal(onX.status, 'failed');
    assert.equal(onX.error, 'x: epic.mp4 is 141 s long; X takes videos of at most 140 s');
    assert.equal((await usage()).data.total_blocks, before);
  });

  it('GET /v1/usage filters by period, validates it, and shows only the caller’s org', async () => {
    const all = await usage();
    assert.ok(all.data.total_blocks > 0);
    assert.equal(all.count, all.data.total_renditions);
    const future = await usage(`?from=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`);
    assert.deepEqual([future.data.total_blocks, future.data.items.length], [0, 0]);
    const page = await usage('?limit=1&offset=1');
    assert.deepEqual([page.data.items.length, page.limit, page.offset, page.data.total_blocks], [1, 1, 1, all.data.total_blocks]);
    const backwards = await h.server.request('GET', '/v1/usage?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', { key: org.key });
    assert.equal(backwards.status, 400);
    assert.deepEqual(backwards.body.details.map((d: any) => d.field), ['from']);
    assert.equal((await h.server.request('GET', '/v1/usage?from=yesterday', { key: org.key })).status, 400);
    const stranger = await h.server.createOrg();
    assert.equal((await h.server.request('GET', '/v1/usage', { key: stranger.key })).body.data.total_blocks, 0);
  });
});
