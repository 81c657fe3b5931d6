// Threads downloads media from public URLs (image_url, video_url) itself.
import { type VideoProfile, GB, H264_HEVC_420, MP4_MOV } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

export const profiles = {
  // §2.3: MOV/MP4, <=1 GB, <=5 min, H.264/HEVC + AAC, 23-60 fps. Width <=1920 (Meta media spec, unverified).
  threads: { id: 'threads@1', label: 'Threads', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxWidth: 1920, minFps: 23, maxFps: 60, maxSeconds: 300, maxBytes: 1 * GB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'public_url', profiles, videoProfile: () => profiles.threads, judge, measure };
