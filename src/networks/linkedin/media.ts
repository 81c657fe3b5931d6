// LinkedIn takes bytes: images and videos are initialized, then uploaded to the URLs it gives.
import { type VideoProfile, H264_420, MB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { checkShape, measure } from './shape.ts';

export const profiles = {
  // §5.3: MP4, 3 s-30 min, 75 KB-500 MB.
  linkedin: { id: 'linkedin@1', label: 'LinkedIn', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minSeconds: 3, maxSeconds: 30 * 60, minBytes: 75 * 1024, maxBytes: 500 * MB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', profiles, videoProfile: () => profiles.linkedin, judge: checkShape, measure };
