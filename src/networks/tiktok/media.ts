// TikTok pulls photos from public URLs only (PULL_FROM_URL, the URL's domain verified for the app);
// videos may be pulled the same way or uploaded (FILE_UPLOAD).
import { type VideoProfile, GB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { measure, shapeOf } from './shape.ts';

export const profiles = {
  // part 2 §2.4: MP4/WebM/MOV; H.264 recommended, H.265/VP8/VP9 accepted; <=4 GB; <=600 s (the common
  // max_video_post_duration_sec); 23-60 fps; each side 360-4096 px.
  tiktok: { id: 'tiktok@1', label: 'TikTok', containers: ['mp4', 'webm', 'mov'], videoCodecs: ['h264', 'hevc', 'vp8', 'vp9'], minShortSide: 360, maxLongSide: 4096, minFps: 23, maxFps: 60, maxSeconds: 600, maxBytes: 4 * GB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'public_url', requiresMedia: true, profiles, videoProfile: () => profiles.tiktok, judge: shapeOf, measure };
