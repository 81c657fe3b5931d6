// Telegram takes a file either way: a URL it downloads itself (photos up to 5 MB, other files up to
// 20 MB), or the bytes in a multipart upload (photos up to 10 MB, other files up to 50 MB)
// (https://core.telegram.org/bots/api#sending-files). The adapter chooses per file; Crier's side is
// `upload`, which works whatever PUBLIC_BASE_URL is.
import { type VideoProfile, H264_420, MB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { ignoredFields, judge, measure } from './shape.ts';

export const profiles = {
  // sendVideo: "Telegram clients support MPEG4 videos"; a bot sends files up to 50 MB (sending-files).
  // H.264 with AAC is what every Telegram client plays (unverified beyond "MPEG4").
  telegram: { id: 'telegram@1', label: 'Telegram', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], maxBytes: 50 * MB },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', profiles, videoProfile: () => profiles.telegram, judge, measure, ignoredFields };
