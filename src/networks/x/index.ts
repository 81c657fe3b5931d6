// X: everything Crier knows of it (the contract: ../contract.ts).
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createXOAuth } from './oauth.ts';
import { options } from './options.ts';
import { xEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

export interface XSettings {
  /** The API host (CRIER_X_API_URL); the OAuth token calls go there too. */
  apiUrl: string;
  /** X's OAuth 2.0 consent page (CRIER_X_AUTHORIZE_URL). */
  authorizeUrl: string;
}

export const x: Network<XSettings> = {
  id: 'x',
  label: 'X',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createXOAuth(settings) },
  // meta-x-linkedin-bluesky.md §1: POST /2/tweets allows 100 per 15 min per user; each tweet of a thread is one.
  limits: { accountQuota: { max: 100, windowMs: 15 * 60_000, counts: 'containers' } },
  publisher: ({ settings }) => lazyAdapter('x', 'the X adapter', async () => (await import('./adapter.ts')).createXAdapter({ apiUrl: settings.apiUrl })),
  capabilities: ({ settings }) => lazyCapabilities('the X engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).xCapabilities(settings.apiUrl)),
  config: {
    variables: ['CRIER_X_API_URL', 'CRIER_X_AUTHORIZE_URL'],
    read: (env) => ({
      apiUrl: env.url('CRIER_X_API_URL', 'https://api.x.com'),
      authorizeUrl: env.url('CRIER_X_AUTHORIZE_URL', 'https://x.com/i/oauth2/authorize'),
    }),
  },
  sandbox: {
    emulator: xEmulator,
    env: (url) => ({ CRIER_X_API_URL: url, CRIER_X_AUTHORIZE_URL: `${url}/i/oauth2/authorize` }),
  },
  // X's v2 API carries no dated version (/2/ has no documented end).
  apiVersions: [],
};
