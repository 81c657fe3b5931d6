// One rendition with ffmpeg: H.264 (High, 4:2:0) and AAC-LC in an MP4 whose index is at the front
// (+faststart), so networks that fetch by URL can start reading before the end.
import { AUDIO_BITRATE, type EncodePlan } from './conform.ts';
import { runTool, type MediaTools } from './tools.ts';

/**
 * `veryfast` at CRF 21: the networks re-encode whatever they receive, so an upload is worth little
 * beyond "clean and within limits"; a slower preset would multiply the time per billed block.
 */
export const ENCODER = { preset: 'veryfast', crf: 21 };

export function encodeArgs(input: string, output: string, plan: EncodePlan): string[] {
  const cap = plan.maxVideoBitrate && Math.floor(plan.maxVideoBitrate / 1000);
  return [
    '-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', input,
    '-map', '0:v:0', ...(plan.audio ? ['-map', '0:a:0'] : []),
    '-vf', filters(plan),
    '-c:v', 'libx264', '-preset', ENCODER.preset, '-crf', String(ENCODER.crf), '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    ...(cap ? ['-maxrate:v', `${cap}k`, '-bufsize:v', `${cap * 2}k`] : []),
    ...(plan.audio ? ['-c:a', 'aac', '-b:a', String(AUDIO_BITRATE), '-ar', '48000', '-ac', '2'] : ['-an']),
    '-sn', '-dn', '-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', output,
  ];
}

function filters(plan: EncodePlan): string {
  const chain = [`scale=${plan.contentWidth}:${plan.contentHeight}`];
  if (plan.contentWidth !== plan.width || plan.contentHeight !== plan.height) {
    chain.push(`pad=${plan.width}:${plan.height}:(ow-iw)/2:(oh-ih)/2:black`);
  }
  if (plan.fps) chain.push(`fps=${plan.fps}`);
  chain.push('setsar=1', 'format=yuv420p');
  return chain.join(',');
}

/** Long enough for a slow machine (ten times the video's length), short enough to free a stuck worker. */
export async function encodeVideo(tools: MediaTools, input: string, output: string, plan: EncodePlan, durationMs: number): Promise<void> {
  await runTool(tools.ffmpeg, encodeArgs(input, output, plan), 60_000 + durationMs * 10);
}
