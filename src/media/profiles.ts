// What video each network takes, as data. processMedia compares a video with the profile of the
// target's network (conform.ts) and re-encodes only when it falls outside; everything network-specific
// about video lives here, not in the publishing engine.
//
// Sources: ../shared/networks/*.md (the API docs as we captured them). Where those notes are silent
// or say "verify", the figure comes from the network's public media-spec pages as restated by
// publishing tools, and is marked (unverified) — better a conservative rendition than a rejected post.
//
// A profile's id carries a version: change any figure of a profile and bump it, so renditions cached
// under the old limits are not reused.
import type { NetworkId } from '../networks/types.ts';
import type { Container } from './probe.ts';

export interface VideoProfile {
  id: string;
  /** For messages: "X", "Instagram Reels". */
  label: string;
  /** Undefined: anything goes (the network transcodes whatever it is given). */
  containers?: readonly Exclude<Container, 'other'>[];
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

const MB = 1024 * 1024;
const GB = 1024 * MB;

// H.264 in 4:2:0 is what every network's player decodes; libx264 keeps 4:4:4 sources in 4:4:4 unless
// told otherwise, and that is refused or shown green by most pipelines.
const H264_420 = { videoCodecs: ['h264'], pixelFormats: ['yuv420p', 'yuvj420p'] } as const;
const H264_HEVC_420 = { videoCodecs: ['h264', 'hevc'], pixelFormats: ['yuv420p', 'yuvj420p'] } as const;
const MP4_MOV = ['mp4', 'mov'] as const;

export const VIDEO_PROFILES = {
  // networks/meta-x-linkedin-bluesky.md §1.3: MP4/MOV, H.264 + AAC-LC, 0.5-140 s, <=1280x1024,
  // <=60 fps, aspect 1:3 to 3:1, <=512 MB.
  x: { id: 'x@1', label: 'X', containers: MP4_MOV, ...H264_420, audioCodecs: ['aac'], maxWidth: 1280, maxHeight: 1024, minAspect: 1 / 3, maxAspect: 3, maxFps: 60, minSeconds: 0.5, maxSeconds: 140, maxBytes: 512 * MB },
  // §2.3: MOV/MP4, <=1 GB, <=5 min, H.264/HEVC + AAC, 23-60 fps. Width <=1920 (Meta media spec, unverified).
  threads: { id: 'threads@1', label: 'Threads', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxWidth: 1920, minFps: 23, maxFps: 60, maxSeconds: 300, maxBytes: 1 * GB },
  // §3.3: Reels 3 s-15 min, MP4/MOV, H.264/HEVC + AAC. Meta's Reels spec (unverified): <=300 MB,
  // 23-60 fps, width <=1920, <=25 Mbps.
  instagram: { id: 'instagram-reel@1', label: 'Instagram Reels', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxWidth: 1920, minFps: 23, maxFps: 60, minSeconds: 3, maxSeconds: 900, maxBytes: 300 * MB, maxBitrate: 25_000_000 },
  instagramStory: { id: 'instagram-story@1', label: 'Instagram Stories', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxWidth: 1920, minFps: 23, maxFps: 60, minSeconds: 3, maxSeconds: 60, maxBytes: 100 * MB, maxBitrate: 25_000_000 },
  // §4.2/4.3: Page videos go up to the GB range through resumable upload (10 GB, 240 min: Graph API
  // video guide, unverified). Reels: MP4, 9:16, >=540x960 (1080x1920 recommended), 24-60 fps, 3-90 s.
  // Video stories: 3-60 s.
  facebook: { id: 'facebook@1', label: 'Facebook', containers: MP4_MOV, ...H264_HEVC_420, audioCodecs: ['aac'], maxSeconds: 240 * 60, maxBytes: 10 * GB },
  facebookReel: { id: 'facebook-reel@1', label: 'Facebook Reels', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minWidth: 540, minHeight: 960, maxWidth: 1080, maxHeight: 1920, minAspect: 9 / 16, maxAspect: 9 / 16, minFps: 24, maxFps: 60, minSeconds: 3, maxSeconds: 90 },
  facebookStory: { id: 'facebook-story@1', label: 'Facebook Stories', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minSeconds: 3, maxSeconds: 60 },
  // §5.3: MP4, 3 s-30 min, 75 KB-500 MB.
  linkedin: { id: 'linkedin@1', label: 'LinkedIn', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minSeconds: 3, maxSeconds: 30 * 60, minBytes: 75 * 1024, maxBytes: 500 * MB },
  // §6.3: MP4 only; the PDS caps a blob at 50 MB (the adapter uploads with uploadBlob). Up to 3 min
  // (Bluesky's announcement, not in the lexicon).
  bluesky: { id: 'bluesky@1', label: 'Bluesky', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], maxSeconds: 180, maxBytes: 50 * MB },
  // part 2 §1.2: any video/* up to 256 GB; YouTube transcodes everything itself.
  youtube: { id: 'youtube@1', label: 'YouTube', maxBytes: 256 * GB },
  // Shorts: up to 3 min, square or vertical.
  youtubeShort: { id: 'youtube-short@1', label: 'YouTube Shorts', maxAspect: 1, maxSeconds: 180, maxBytes: 256 * GB },
  // part 2 §2.4: MP4/WebM/MOV; H.264 recommended, H.265/VP8/VP9 accepted; <=4 GB; <=600 s (the common
  // max_video_post_duration_sec); 23-60 fps; each side 360-4096 px.
  tiktok: { id: 'tiktok@1', label: 'TikTok', containers: ['mp4', 'webm', 'mov'], videoCodecs: ['h264', 'hevc', 'vp8', 'vp9'], minShortSide: 360, maxLongSide: 4096, minFps: 23, maxFps: 60, maxSeconds: 600, maxBytes: 4 * GB },
  // part 2 §3.3: VIDEO media by sourceUrl; limits from Google's help pages (unverified): <=30 s, <=75 MB, >=720p.
  google_business: { id: 'google-business@1', label: 'Google Business Profile', containers: ['mp4'], ...H264_420, audioCodecs: ['aac'], minShortSide: 720, maxSeconds: 30, maxBytes: 75 * MB },
  // part 2 §4.5: .mp4/.mov/.m4v, H.264/H.265, <=2 GB, 4 s-15 min, aspect 1:2 to 1.91:1.
  pinterest: { id: 'pinterest@1', label: 'Pinterest', containers: MP4_MOV, ...H264_HEVC_420, minAspect: 1 / 2, maxAspect: 1.91, minSeconds: 4, maxSeconds: 900, maxBytes: 2 * GB },
  // part 2 §5.4: the plan's upload quota is the only limit; Vimeo transcodes whatever it gets.
  vimeo: { id: 'vimeo@1', label: 'Vimeo' },
} satisfies Record<string, VideoProfile>;

/**
 * The profile a target's video must meet: the network's, or the variant its platform block selects
 * (a Facebook Reel or Story, an Instagram Story, a YouTube Short). Undefined for a network that takes
 * no video through Crier (reddit: media containers are refused at request time).
 */
export function videoProfileFor(network: NetworkId, block: Record<string, unknown> | undefined): VideoProfile | undefined {
  switch (network) {
    case 'facebook':
      if (block?.publishAsReel === true) return VIDEO_PROFILES.facebookReel;
      return block?.publishAsStory === true ? VIDEO_PROFILES.facebookStory : VIDEO_PROFILES.facebook;
    case 'instagram':
      return block?.publishAsStory === true ? VIDEO_PROFILES.instagramStory : VIDEO_PROFILES.instagram;
    case 'youtube':
      return block?.isShort === true ? VIDEO_PROFILES.youtubeShort : VIDEO_PROFILES.youtube;
    case 'reddit':
      return undefined;
    default:
      return VIDEO_PROFILES[network];
  }
}
