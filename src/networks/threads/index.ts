// Threads: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlNetwork } from '../base-url.ts';
import { media } from './media.ts';
import { createThreadsOAuth } from './oauth.ts';
import { options } from './options.ts';
import { threadsEmulator } from './sandbox.ts';

export const threads = baseUrlNetwork({
  id: 'threads', label: 'Threads', options, media, oauth: createThreadsOAuth, emulator: threadsEmulator,
  // meta-x-linkedin-bluesky.md §2: 250 published posts per 24 h per profile (replies,
  // later containers, have their own 1,000).
  limits: { accountQuota: { max: 250, windowMs: 24 * 3_600_000, counts: 'posts' } },
});
