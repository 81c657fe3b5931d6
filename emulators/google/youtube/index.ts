// The YouTube Data API v3 publishing paths (videos, resumable uploads, thumbnails, comments) of the Google emulator, mounted on its one app by server.ts.
import type { FastifyInstance } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import type { GoogleWorld } from '../world.ts';

/** What tests and the sandbox control and inspect of Youtube on the Google emulator (`emulator.youtube`). */
export type YoutubeControls = Record<string, never>;

export function mountYoutube(_app: FastifyInstance, _world: GoogleWorld, _faults: FaultQueue): YoutubeControls {
  return {};
}
