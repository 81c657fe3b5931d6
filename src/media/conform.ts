// Does a video meet a network's profile, and if not, what rendition would: pure functions from what
// ffprobe saw (probe.ts) and the profile (profiles.ts) to a verdict and an encoding plan.
import type { VideoInfo } from './probe.ts';
import type { VideoProfile } from './profiles.ts';

export interface Verdict {
  /** Ways the video falls outside the profile that a re-encode fixes. */
  fixable: string[];
  /** Ways no re-encode fixes (its length, no picture at all): the destination fails. */
  unfixable: string[];
}

/** Tolerances: a 23.976 fps video is a 24 fps one, and rounding to even pixels moves an aspect a bit. */
const FPS_SLACK = 0.1;
const ASPECT_SLACK = 0.01;

export function judge(p: VideoProfile, info: VideoInfo): Verdict {
  const verdict: Verdict = { fixable: [], unfixable: [] };
  const seconds = info.durationMs / 1000;
  if (!info.video) verdict.unfixable.push('has no video stream');
  if (p.minSeconds !== undefined && seconds < p.minSeconds) verdict.unfixable.push(`is ${seconds} s long; ${p.label} takes videos of at least ${p.minSeconds} s`);
  if (p.maxSeconds !== undefined && seconds > p.maxSeconds) verdict.unfixable.push(`is ${seconds} s long; ${p.label} takes videos of at most ${p.maxSeconds} s`);
  if (p.minBytes !== undefined && info.sizeBytes < p.minBytes) verdict.unfixable.push(`is ${info.sizeBytes} bytes; ${p.label} takes videos of at least ${p.minBytes} bytes`);
  if (info.video) verdict.fixable.push(...formatProblems(p, info), ...pictureProblems(p, info.video));
  if (p.maxBytes !== undefined && info.sizeBytes > p.maxBytes) verdict.fixable.push(`${info.sizeBytes} bytes, over ${p.maxBytes}`);
  if (p.maxBitrate !== undefined && info.bitrate > p.maxBitrate) verdict.fixable.push(`${info.bitrate} bit/s, over ${p.maxBitrate}`);
  return verdict;
}

function formatProblems(p: VideoProfile, info: VideoInfo): string[] {
  const problems: string[] = [];
  const outside = (list: readonly string[] | undefined, value: string) => list !== undefined && !list.includes(value);
  if (outside(p.containers, info.container)) problems.push(`container ${info.container} (takes ${p.containers!.join(', ')})`);
  if (outside(p.videoCodecs, info.video!.codec)) problems.push(`video codec ${info.video!.codec} (takes ${p.videoCodecs!.join(', ')})`);
  if (outside(p.pixelFormats, info.video!.pixFmt)) problems.push(`pixel format ${info.video!.pixFmt} (takes ${p.pixelFormats!.join(', ')})`);
  if (info.audio && outside(p.audioCodecs, info.audio.codec)) problems.push(`audio codec ${info.audio.codec} (takes ${p.audioCodecs!.join(', ')})`);
  return problems;
}

function pictureProblems(p: VideoProfile, v: NonNullable<VideoInfo['video']>): string[] {
  const problems: string[] = [];
  const size = `${v.width}x${v.height}`;
  const short = Math.min(v.width, v.height);
  const long = Math.max(v.width, v.height);
  if ((p.maxWidth !== undefined && v.width > p.maxWidth) || (p.maxHeight !== undefined && v.height > p.maxHeight)) problems.push(`${size} is larger than ${p.maxWidth ?? 'any'}x${p.maxHeight ?? 'any'}`);
  if ((p.minWidth !== undefined && v.width < p.minWidth) || (p.minHeight !== undefined && v.height < p.minHeight)) problems.push(`${size} is smaller than ${p.minWidth ?? 0}x${p.minHeight ?? 0}`);
  if (p.minShortSide !== undefined && short < p.minShortSide) problems.push(`${size} has a side under ${p.minShortSide} px`);
  if (p.maxLongSide !== undefined && long > p.maxLongSide) problems.push(`${size} has a side over ${p.maxLongSide} px`);
  const aspect = v.width / v.height;
  if ((p.minAspect !== undefined && aspect < p.minAspect * (1 - ASPECT_SLACK)) || (p.maxAspect !== undefined && aspect > p.maxAspect * (1 + ASPECT_SLACK))) {
    problems.push(`aspect ratio ${aspect.toFixed(3)} outside ${(p.minAspect ?? 0).toFixed(3)}-${p.maxAspect?.toFixed(3) ?? 'any'}`);
  }
  if (p.maxFps !== undefined && v.fps > p.maxFps + FPS_SLACK) problems.push(`${round(v.fps)} fps, over ${p.maxFps}`);
  if (p.minFps !== undefined && v.fps < p.minFps - FPS_SLACK) problems.push(`${round(v.fps)} fps, under ${p.minFps}`);
  return problems;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** An H.264/AAC MP4 rendition: frame size, the picture inside it (padded to reach an aspect), frame rate, bitrate cap. */
export interface EncodePlan {
  width: number;
  height: number;
  contentWidth: number;
  contentHeight: number;
  /** Undefined: keep the source's. */
  fps: number | undefined;
  /** Video bits/s cap; undefined: quality-driven only. */
  maxVideoBitrate: number | undefined;
  audio: boolean;
}

export const AUDIO_BITRATE = 128_000;

export function planRendition(p: VideoProfile, info: VideoInfo): EncodePlan {
  const v = info.video!;
  return { ...geometry(p, v.width, v.height), fps: frameRate(p, v.fps), maxVideoBitrate: bitrateCap(p, info), audio: info.audio !== undefined };
}

/**
 * Pads the picture out to the nearest allowed aspect (never crops what the author framed), then
 * scales the whole frame into the size bounds: down to fit maxima, up to reach minima.
 */
function geometry(p: VideoProfile, width: number, height: number) {
  const aspect = width / height;
  let frameW = width;
  let frameH = height;
  if (p.maxAspect !== undefined && aspect > p.maxAspect) frameH = width / p.maxAspect;
  if (p.minAspect !== undefined && aspect < p.minAspect) frameW = height * p.minAspect;
  const shrink = Math.min(1, ratio(p.maxWidth, frameW), ratio(p.maxHeight, frameH), ratio(p.maxLongSide, Math.max(frameW, frameH)));
  const grow = Math.max(1, ratio(p.minWidth, frameW, 1), ratio(p.minHeight, frameH, 1), ratio(p.minShortSide, Math.min(frameW, frameH), 1));
  const scale = grow > 1 ? grow : shrink;
  const outW = clampEven(frameW * scale, p.minWidth, p.maxWidth);
  const outH = clampEven(frameH * scale, p.minHeight, p.maxHeight);
  return { width: outW, height: outH, contentWidth: Math.min(outW, even(width * scale)), contentHeight: Math.min(outH, even(height * scale)) };
}

const ratio = (bound: number | undefined, value: number, neutral = 1) => (bound === undefined ? neutral : bound / value);
const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const clampEven = (value: number, min = 0, max = Infinity) => Math.min(max, Math.max(min, even(value)));

function frameRate(p: VideoProfile, fps: number): number | undefined {
  if (fps === 0) return p.maxFps ?? p.minFps; // unknown (variable rate): pin it where the profile needs it
  if (p.maxFps !== undefined && fps > p.maxFps + FPS_SLACK) return p.maxFps;
  if (p.minFps !== undefined && fps < p.minFps - FPS_SLACK) return p.minFps;
  return undefined;
}

/**
 * From the byte and bitrate limits, with 10% headroom for the container and the encoder's overshoot.
 * A cap above what a CRF encode ever reaches binds nothing (and a short clip under a GB-sized limit
 * would ask for more bits than the encoder's rate control can count), so it is left out.
 */
function bitrateCap(p: VideoProfile, info: VideoInfo): number | undefined {
  const caps: number[] = [];
  if (p.maxBitrate !== undefined) caps.push(p.maxBitrate * 0.9);
  if (p.maxBytes !== undefined && info.durationMs > 0) caps.push(((p.maxBytes * 8) / (info.durationMs / 1000)) * 0.9);
  const total = Math.min(...caps);
  if (!caps.length || total > UNBINDING_BITRATE) return undefined;
  return Math.max(100_000, Math.floor(total - (info.audio ? AUDIO_BITRATE : 0)));
}

const UNBINDING_BITRATE = 100_000_000;
