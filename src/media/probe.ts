// What a video is, as ffprobe reads it: container, codecs, displayed resolution, frame rate, duration,
// size. Inspection is free for the customer (spec), so this is all it takes to decide that a video
// needs nothing.
import type { VideoContainer } from '../networks/video.ts';
import { open, stat } from 'node:fs/promises';
import { sniffType, SNIFF_BYTES } from './sniff.ts';
import { runTool, ToolError, type MediaTools } from './tools.ts';

export type Container = VideoContainer | 'other';

export interface VideoInfo {
  container: Container;
  sizeBytes: number;
  /** The picture's length (see durationMs below). */
  durationMs: number;
  /** Whole-file bits per second. */
  bitrate: number;
  video: { codec: string; width: number; height: number; fps: number; pixFmt: string } | undefined;
  audio: { codec: string; sampleRate: number; channels: number } | undefined;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  sample_rate?: string;
  channels?: number;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface ProbeOutput {
  format?: { duration?: string; bit_rate?: string };
  streams?: ProbeStream[];
}

export class ProbeError extends Error {}

export async function probeVideo(tools: MediaTools, file: string): Promise<VideoInfo> {
  let raw: string;
  try {
    raw = await runTool(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], 60_000);
  } catch (error) {
    throw new ProbeError(error instanceof ToolError ? error.message : String(error));
  }
  const output = JSON.parse(raw) as ProbeOutput;
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const sizeBytes = (await stat(file)).size;
  const durationMs = durationOf(video, output);
  return {
    container: await containerOf(file),
    sizeBytes,
    durationMs,
    bitrate: Number(output.format?.bit_rate) || (durationMs > 0 ? Math.round((sizeBytes * 8000) / durationMs) : 0),
    video: video && videoFacts(video),
    audio: audio && { codec: audio.codec_name ?? 'unknown', sampleRate: Number(audio.sample_rate) || 0, channels: audio.channels ?? 0 },
  };
}

/**
 * The video stream's own duration when known, else the container's. The container's includes the
 * ~20 ms of priming an AAC encoder adds to the audio track, which must not make a 10.00 s video a
 * 10.02 s one billed as two 10-second blocks.
 */
function durationOf(video: ProbeStream | undefined, output: ProbeOutput): number {
  const seconds = Number(video?.duration) || Number(output.format?.duration) || 0;
  return Math.round(seconds * 1000);
}

/** Width and height as displayed: a phone video stored 1920x1080 with a 90° rotation shows 1080x1920. */
function videoFacts(stream: ProbeStream) {
  const rotation = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? Number(stream.tags?.rotate ?? 0);
  const quarterTurn = Math.abs(rotation) % 180 === 90;
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  return {
    codec: stream.codec_name ?? 'unknown',
    width: quarterTurn ? height : width,
    height: quarterTurn ? width : height,
    fps: rate(stream.avg_frame_rate) || rate(stream.r_frame_rate),
    pixFmt: stream.pix_fmt ?? 'unknown',
  };
}

function rate(fraction: string | undefined): number {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
}

/** From the file's first bytes: ffprobe names MP4 and MOV alike ("mov,mp4,m4a,..."). */
async function containerOf(file: string): Promise<Container> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    const type = sniffType(head.subarray(0, bytesRead));
    return type === 'video/mp4' ? 'mp4' : type === 'video/quicktime' ? 'mov' : type === 'video/webm' ? 'webm' : 'other';
  } finally {
    await handle.close();
  }
}
