// Vimeo takes bytes (tus upload) and transcodes whatever it gets.
import type { VideoProfile } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { checkShape, measure } from './shape.ts';

export const profiles = {
  // part 2 §5.4: the plan's upload quota is the only limit; Vimeo transcodes whatever it gets.
  vimeo: { id: 'vimeo@1', label: 'Vimeo' },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', requiresMedia: true, profiles, videoProfile: () => profiles.vimeo, judge: checkShape, measure };
