// Facebook takes bytes (photos as source, resumable video uploads); photos may also go by URL.
import { type VideoProfile, GB, H264_420, H264_HEVC_420, MP4_MOV } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { checkShape, measure } from './shape.ts';

export const profiles = {
  // §4.2/4.3: Page videos go up to the GB range through resumable upload (10 GB, 240 min: Graph API
  // video guide, unverified). Reels: MP4, 9:16, >=540x960 (1080x1920 recommended), 24-60 fps, 3-90 s.
  // Video stories: 3-60 s.
  facebook: { id: 'facebook@1', label: 'Facebook', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxSeconds: 240 * 60, maxBytes: 10 * GB },
  facebookReel: { id: 'facebook-reel@1', label: 'Facebook Reels', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minWidth: 540, minHeight: 960, maxWidth: 1080, maxHeight: 1920, minAspect: 9 / 16, maxAspect: 9 / 16, minFps: 24, maxFps: 60, minSeconds: 3, maxSeconds: 90 },
  facebookStory: { id: 'facebook-story@1', label: 'Facebook Stories', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minSeconds: 3, maxSeconds: 60 },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = {
  delivery: 'upload',
  profiles,
  videoProfile(block) {
    if (block?.publishAsReel === true) return profiles.facebookReel;
    return block?.publishAsStory === true ? profiles.facebookStory : profiles.facebook;
  },
  judge: checkShape,
  measure,
};
