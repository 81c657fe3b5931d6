// Runs an engagement call with the account's session (session.ts), its errors classified as
// publishing's are.
import type { AtpAgent } from '@atproto/api';
import type { AccountSession } from '../capabilities.ts';
import { classifierFor, openSession } from './session.ts';

/** Opens the session and runs `call`, its errors classified as publishing's are. */
export async function withAgent<T>(service: string, session: AccountSession, doing: string, call: (agent: AtpAgent, did: string) => Promise<T>): Promise<T> {
  const agent = await openSession(session, service);
  try {
    return await call(agent, agent.session!.did);
  } catch (error) {
    throw classifierFor(agent, service)(error, doing);
  }
}
