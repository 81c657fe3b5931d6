// A webhook uploads files in its multipart body (https://discord.com/developers/docs/reference#uploading-files):
// up to 10 a message, each at most 25 MiB by default ("the default upload limit"; a boosted server
// allows more, which a webhook cannot know). Any file type is taken; Discord's clients play MP4 and
// WebM video inline.
import { type VideoProfile, H264_420, MB } from '../video.ts';
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

/** The default upload limit of a file: 25 MiB. */
export const MAX_FILE_BYTES = 25 * MB;

export const profiles = {
  // Any file uploads; H.264 with AAC in MP4 is what every Discord client plays inline (unverified
  // beyond "MP4 and WebM embed"), within the default upload limit.
  discord: { id: 'discord@1', label: 'Discord', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], maxBytes: MAX_FILE_BYTES },
} satisfies Record<string, VideoProfile>;

export const media: NetworkMedia = { delivery: 'upload', profiles, videoProfile: () => profiles.discord, judge, measure };
