// Bluesky takes bytes: blobs uploaded to the account's PDS.
import { type VideoProfile, H264_420, MB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

export const profiles = {
  // §6.3: MP4 only; the PDS caps a blob at 50 MB (the adapter uploads with uploadBlob). Up to 3 min
  // (Bluesky's announcement, not in the lexicon).
  bluesky: { id: 'bluesky@1', label: 'Bluesky', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], maxSeconds: 180, maxBytes: 50 * MB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', profiles, videoProfile: () => profiles.bluesky, judge, measure };
