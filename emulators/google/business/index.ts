// The Business Profile localPosts paths of the Google emulator, mounted on its one app by server.ts.
import type { FastifyInstance } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import type { GoogleWorld } from '../world.ts';

/** What tests and the sandbox control and inspect of Business on the Google emulator (`emulator.business`). */
export type BusinessControls = Record<string, never>;

export function mountBusiness(_app: FastifyInstance, _world: GoogleWorld, _faults: FaultQueue): BusinessControls {
  return {};
}
