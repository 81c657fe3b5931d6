// YouTube takes bytes (resumable upload) and transcodes whatever it is given.
import { type VideoProfile, GB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { checked, measure } from './shape.ts';

export const profiles = {
  // part 2 §1.2: any video/* up to 256 GB; YouTube transcodes everything itself.
  youtube: { id: 'youtube@1', label: 'YouTube', maxBytes: 256 * GB },
  // Shorts: up to 3 min, square or vertical.
  youtubeShort: { id: 'youtube-short@1', label: 'YouTube Shorts', maxAspect: 1, maxSeconds: 180, maxBytes: 256 * GB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = {
  delivery: 'upload',
  requiresMedia: true,
  profiles,
  videoProfile: (block) => (block?.isShort === true ? profiles.youtubeShort : profiles.youtube),
  judge: checked,
  measure,
};
