// The pure rules under media: what bytes are, which profile a target gets, what falls outside it,
// what rendition fixes it, and how it is billed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judge, planRendition } from '../../src/media/conform.ts';
import type { VideoInfo } from '../../src/media/probe.ts';
import { VIDEO_PROFILES, videoProfileFor } from '../../src/media/profiles.ts';
import { billedBlocks } from '../../src/media/renditions.ts';
import { sniffType, typeFromFilename } from '../../src/media/sniff.ts';
import { NETWORKS } from '../../src/networks/ids.ts';

const hex = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex');
const ftyp = (brand: string) => Buffer.concat([hex('00000018'), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(12)]);

describe('sniffType', () => {
  it('recognises the formats Crier takes from their first bytes, and nothing else', () => {
    const cases: [Buffer, string | undefined][] = [
      [hex('89504e470d0a1a0a0000000d49484452'), 'image/png'],
      [hex('ffd8ffe000104a464946'), 'image/jpeg'],
      [Buffer.from('GIF89a\x01\x00', 'latin1'), 'image/gif'],
      [Buffer.from('GIF87a\x01\x00', 'latin1'), 'image/gif'],
      [Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp'],
      [ftyp('isom'), 'video/mp4'],
      [ftyp('mp42'), 'video/mp4'],
      [ftyp('qt  '), 'video/quicktime'],
      [Buffer.concat([hex('1a45dfa3 9f 4286 81 01 4282 84'), Buffer.from('webm', 'latin1')]), 'video/webm'],
      [Buffer.concat([hex('1a45dfa3 a3 4286 81 01 4282 88'), Buffer.from('matroska', 'latin1')]), undefined],
      [ftyp('heic'), undefined],
      [ftyp('avif'), undefined],
      [ftyp('M4A '), undefined],
      [Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), undefined],
      [Buffer.from('<!doctype html>', 'latin1'), undefined],
      [Buffer.from('%PDF-1.7', 'latin1'), undefined],
      [Buffer.alloc(0), undefined],
    ];
    for (const [head, expected] of cases) assert.equal(sniffType(head), expected, head.toString('latin1'));
  });

  it('reads the type a filename claims, case-insensitively', () => {
    assert.equal(typeFromFilename('A.JPG'), 'image/jpeg');
    assert.equal(typeFromFilename('clip.m4v'), 'video/mp4');
    assert.equal(typeFromFilename('clip.MOV'), 'video/quicktime');
    assert.equal(typeFromFilename('x.tar.gz'), undefined);
    assert.equal(typeFromFilename('png'), undefined);
  });
});

function video(width: number, height: number, fps: number, extra: Partial<VideoInfo> = {}): VideoInfo {
  return {
    container: 'mp4',
    sizeBytes: 5_000_000,
    durationMs: 20_000,
    bitrate: 2_000_000,
    video: { codec: 'h264', width, height, fps, pixFmt: 'yuv420p' },
    audio: { codec: 'aac', sampleRate: 48_000, channels: 2 },
    ...extra,
  };
}

describe('profiles', () => {
  it('every network but reddit and google_business (no video through their APIs) has a video profile; platform blocks select variants', () => {
    for (const network of NETWORKS) assert.equal(videoProfileFor(network, undefined) === undefined, network === 'reddit' || network === 'google_business', network);
    assert.equal(videoProfileFor('facebook', { publishAsReel: true })!.id, 'facebook-reel@1');
    assert.equal(videoProfileFor('facebook', { publishAsStory: true })!.id, 'facebook-story@1');
    assert.equal(videoProfileFor('instagram', { publishAsStory: true })!.id, 'instagram-story@1');
    assert.equal(videoProfileFor('instagram', undefined)!.id, 'instagram-reel@1');
    assert.equal(videoProfileFor('youtube', { isShort: true })!.id, 'youtube-short@1');
  });

  it("a rendition (H.264 4:2:0 + AAC in MP4) is a format every profile takes", () => {
    const rendition = video(1280, 720, 30);
    for (const profile of Object.values(VIDEO_PROFILES)) {
      const format = judge(profile, rendition).fixable.filter((p) => /container|codec|pixel format/.test(p));
      assert.deepEqual(format, [], profile.id);
    }
  });
});

describe('judge and planRendition', () => {
  it('finds nothing to do for a video inside the profile', () => {
    assert.deepEqual(judge(VIDEO_PROFILES.x, video(1280, 720, 30)), { fixable: [], unfixable: [] });
    assert.deepEqual(judge(VIDEO_PROFILES.tiktok, video(1080, 1920, 23.976)), { fixable: [], unfixable: [] }, 'NTSC film rate counts as 23-60');
  });

  it('X: 1080p60 is scaled into 1280x1024 keeping the frame rate; 120 fps comes down to 60', () => {
    const info = video(1920, 1080, 60);
    assert.deepEqual(judge(VIDEO_PROFILES.x, info).fixable, ['1920x1080 is larger than 1280x1024']);
    assert.deepEqual(planRendition(VIDEO_PROFILES.x, info), { width: 1280, height: 720, contentWidth: 1280, contentHeight: 720, fps: undefined, maxVideoBitrate: undefined, audio: true });
    const vertical = planRendition(VIDEO_PROFILES.x, video(2160, 3840, 120));
    assert.deepEqual([vertical.width, vertical.height, vertical.fps], [576, 1024, 60]);
  });

  it('pads to reach an aspect ratio instead of cropping', () => {
    const reel = planRendition(VIDEO_PROFILES.facebookReel, video(1920, 1080, 30));
    assert.deepEqual([reel.width, reel.height, reel.contentWidth, reel.contentHeight], [1080, 1920, 1080, 608]);
    const pin = planRendition(VIDEO_PROFILES.pinterest, video(3000, 1000, 30));
    assert.deepEqual([pin.width, pin.height, pin.contentWidth, pin.contentHeight], [3000, 1570, 3000, 1000]);
    assert.ok(judge(VIDEO_PROFILES.pinterest, video(pin.width, pin.height, 30)).fixable.length === 0);
  });

  it('scales up to reach minimum sizes and frame rates', () => {
    const small = planRendition(VIDEO_PROFILES.tiktok, video(320, 240, 15));
    assert.deepEqual([small.width, small.height, small.fps], [480, 360, 23]);
  });

  it('caps the bitrate only where a byte or bitrate limit can bind', () => {
    const blueskyLong = planRendition(VIDEO_PROFILES.bluesky, video(1280, 720, 30, { durationMs: 180_000 }));
    // 50 MB over 180 s, 10% headroom, minus the audio.
    assert.equal(blueskyLong.maxVideoBitrate, Math.floor(((50 * 1024 * 1024 * 8) / 180) * 0.9 - 128_000));
    assert.equal(planRendition(VIDEO_PROFILES.x, video(1920, 1080, 30, { durationMs: 2_000 })).maxVideoBitrate, undefined);
  });

  it('reports what no rendition can fix: length, minimum size of file, no picture', () => {
    assert.deepEqual(judge(VIDEO_PROFILES.x, video(1280, 720, 30, { durationMs: 141_000 })).unfixable, ['is 141 s long; X takes videos of at most 140 s']);
    assert.deepEqual(judge(VIDEO_PROFILES.instagram, video(1080, 1920, 30, { durationMs: 2_000 })).unfixable, ['is 2 s long; Instagram Reels takes videos of at least 3 s']);
    assert.equal(judge(VIDEO_PROFILES.linkedin, video(1280, 720, 30, { sizeBytes: 1000, durationMs: 5_000 })).unfixable.length, 1);
    assert.deepEqual(judge(VIDEO_PROFILES.x, { ...video(1, 1, 1), video: undefined }).unfixable, ['has no video stream']);
  });

  it('names each format problem', () => {
    const info = video(640, 360, 30, { container: 'webm', video: { codec: 'vp9', width: 640, height: 360, fps: 30, pixFmt: 'yuv444p' }, audio: { codec: 'opus', sampleRate: 48_000, channels: 2 } });
    assert.deepEqual(judge(VIDEO_PROFILES.x, info).fixable, [
      'container webm (takes mp4, mov)',
      'video codec vp9 (takes h264)',
      'pixel format yuv444p (takes yuv420p, yuvj420p)',
      'audio codec opus (takes aac)',
    ]);
  });
});

describe('billedBlocks', () => {
  it('counts 10-second blocks of output, rounded up, at least one', () => {
    assert.deepEqual([0, 1, 9_999, 10_000, 10_001, 25_000, 60_000].map(billedBlocks), [1, 1, 1, 1, 2, 3, 6]);
  });
});
