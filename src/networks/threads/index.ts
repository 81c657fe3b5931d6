// Threads: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { threadsEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createThreadsOAuth } from './oauth.ts';
import { options } from './options.ts';

export const threads: Network<BaseUrlSettings> = {
  id: 'threads',
  label: 'Threads',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createThreadsOAuth(settings.baseUrl) },
  // meta-x-linkedin-bluesky.md §2: 250 published posts per 24 h per profile.
  limits: { accountPacingMs: 345_600 },
  config: baseUrlConfig('threads'),
  sandbox: baseUrlSandbox('threads', threadsEmulator),
};
