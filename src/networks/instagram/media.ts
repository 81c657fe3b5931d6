// Instagram's containers take public URLs (image_url, video_url) that Meta downloads; feed videos are Reels.
import { type VideoProfile, H264_HEVC_420, MB, MP4_MOV } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { checkShape } from './plan.ts';
import { measure } from './shape.ts';

export const profiles = {
  // §3.3: Reels 3 s-15 min, MP4/MOV, H.264/HEVC + AAC. Meta's Reels spec (unverified): <=300 MB,
  // 23-60 fps, width <=1920, <=25 Mbps.
  instagram: { id: 'instagram-reel@1', label: 'Instagram Reels', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxWidth: 1920, minFps: 23, maxFps: 60, minSeconds: 3, maxSeconds: 900, maxBytes: 300 * MB, maxBitrate: 25_000_000 },
  instagramStory: { id: 'instagram-story@1', label: 'Instagram Stories', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxWidth: 1920, minFps: 23, maxFps: 60, minSeconds: 3, maxSeconds: 60, maxBytes: 100 * MB, maxBitrate: 25_000_000 },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = {
  delivery: 'public_url',
  requiresMedia: true,
  profiles,
  videoProfile: (block) => (block?.publishAsStory === true ? profiles.instagramStory : profiles.instagram),
  judge: checkShape,
  measure,
};
