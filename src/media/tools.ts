// ffmpeg and ffprobe: the static binaries shipped in npm packages (nothing to install on the machine),
// or the operator's own (CRIER_FFMPEG_PATH, CRIER_FFPROBE_PATH).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

const require = createRequire(import.meta.url);

export function mediaTools(configured: { ffmpegPath?: string; ffprobePath?: string } = {}): MediaTools {
  return {
    ffmpeg: configured.ffmpegPath ?? (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
    ffprobe: configured.ffprobePath ?? (require('@ffprobe-installer/ffprobe') as { path: string }).path,
  };
}

export class ToolError extends Error {}

const STDERR_TAIL = 2000;

/** Runs a binary to completion; stdout is returned, a failure carries the end of stderr. */
export function runTool(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ToolError(`${binary} could not run: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const why = signal ? `killed by ${signal}${signal === 'SIGKILL' ? ` (over ${timeoutMs} ms?)` : ''}` : `exit code ${code}`;
      reject(new ToolError(`${binary.split('/').pop()} failed (${why}): ${lastLine(err)}`));
    });
  });
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1) ?? 'no output';
}
