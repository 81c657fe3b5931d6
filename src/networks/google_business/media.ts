// Google Business Profile fetches media itself: media[] items by sourceUrl.
import type { VideoProfile } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { H264_420, MB } from '../video.ts';

export const profiles = {
  // part 2 §3.3: VIDEO media by sourceUrl; limits from Google's help pages (unverified): <=30 s, <=75 MB, >=720p.
  google_business: { id: 'google-business@1', label: 'Google Business Profile', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minShortSide: 720, maxSeconds: 30, maxBytes: 75 * MB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'public_url', profiles, videoProfile: () => profiles.google_business };
