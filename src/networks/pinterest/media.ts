// Pinterest takes bytes: images in the pin (by URL from Crier's public address, else base64), videos
// registered then uploaded to the upload URL /v5/media hands out (adapter.ts, uploads.ts).
import { type VideoProfile, GB, H264_HEVC_420, MP4_MOV } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { ignoredFields } from './options.ts';
import { judge, measure } from './shape.ts';

export const profiles = {
  // part 2 §4.5: .mp4/.mov/.m4v, H.264/H.265, <=2 GB, 4 s-15 min, aspect 1:2 to 1.91:1.
  pinterest: { id: 'pinterest@1', label: 'Pinterest', containers: MP4_MOV, ...H264_HEVC_420, minAspect: 1 / 2, maxAspect: 1.91, minSeconds: 4, maxSeconds: 900, maxBytes: 2 * GB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', requiresMedia: true, profiles, videoProfile: () => profiles.pinterest, judge, measure, ignoredFields };
