// What every network's video profile (src/networks/<network>/media.ts) is made of. processMedia
// compares a video with the profile of the target's network (media/conform.ts) and re-encodes only
// when it falls outside; everything network-specific about video lives with the network, not in the
// publishing engine or in media/.
//
// Sources: docs/networks/*.md (the API docs as we captured them). Where those notes are silent
// or say "verify", the figure comes from the network's public media-spec pages as restated by
// publishing tools, and is marked (unverified) — better a conservative rendition than a rejected post.
//
// A profile's id carries a version: change any figure of a profile and bump it, so renditions cached
// under the old limits are not reused.

/** The containers ffprobe tells apart that some network takes (media/probe.ts). */
export type VideoContainer = 'mp4' | 'mov' | 'webm';

export interface VideoProfile {
  id: string;
  /** For messages: "X", "Instagram Reels". */
  label: string;
  /** Undefined: anything goes (the network transcodes whatever it is given). */
  containers?: readonly VideoContainer[];
  /** ffprobe codec names. */
  videoCodecs?: readonly string[];
  audioCodecs?: readonly string[];
  pixelFormats?: readonly string[];
  maxWidth?: number;
  maxHeight?: number;
  minWidth?: number;
  minHeight?: number;
  /** Bounds on the shorter / longer side, whatever the orientation. */
  minShortSide?: number;
  maxLongSide?: number;
  /** width / height */
  minAspect?: number;
  maxAspect?: number;
  minFps?: number;
  maxFps?: number;
  minSeconds?: number;
  maxSeconds?: number;
  minBytes?: number;
  maxBytes?: number;
  /** Whole-file bits per second. */
  maxBitrate?: number;
}

export const MB = 1024 * 1024;
export const GB = 1024 * MB;

// H.264 in 4:2:0 is what every network's player decodes; libx264 keeps 4:4:4 sources in 4:4:4 unless
// told otherwise, and that is refused or shown green by most pipelines.
export const H264_420 = { videoCodecs: ['h264'], pixelFormats: ['yuv420p', 'yuvj420p'] } as const;
export const H264_HEVC_420 = { videoCodecs: ['h264', 'hevc'], pixelFormats: ['yuv420p', 'yuvj420p'] } as const;
export const MP4_MOV = ['mp4', 'mov'] as const;
