// Mastodon takes bytes: each file is uploaded to the account's instance (POST /api/v2/media), which
// transcodes videos itself (https://docs.joinmastodon.org/user/posting/#media: MP4, M4V, MOV, WebM up to
// 99 MB on a default instance; the instance's own `video_size_limit` is checked before the upload).
import { type VideoProfile, MB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

export const profiles = {
  // The instance re-encodes what it is given (ffmpeg): any of its containers, the size its default allows.
  mastodon: { id: 'mastodon@1', label: 'Mastodon', containers: ['mp4', 'mov', 'webm'], maxBytes: 99 * MB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', profiles, videoProfile: () => profiles.mastodon, judge, measure };
