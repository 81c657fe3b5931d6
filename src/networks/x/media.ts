// X takes media as bytes (chunked upload), and one video profile.
import { type VideoProfile, H264_420, MB, MP4_MOV } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

export const profiles = {
  // networks/meta-x-linkedin-bluesky.md §1.3: MP4/MOV, H.264 + AAC-LC, 0.5-140 s, <=1280x1024,
  // <=60 fps, aspect 1:3 to 3:1, <=512 MB.
  x: { id: 'x@1', label: 'X', containers: MP4_MOV, ...H264_420, audioCodecs: ['aac'], maxWidth: 1280, maxHeight: 1024, minAspect: 1 / 3, maxAspect: 3, maxFps: 60, minSeconds: 0.5, maxSeconds: 140, maxBytes: 512 * MB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', profiles, videoProfile: () => profiles.x, judge, measure };
