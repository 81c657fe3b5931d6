// Bluesky: everything Crier knows of it (the contract: ../contract.ts). Accounts connect with an app
// password, not OAuth.
import { lazyAdapter } from '../lazy-adapter.ts';
import type { Network } from '../contract.ts';
import { loginWithAppPassword } from './connect.ts';
import { media } from './media.ts';
import { options } from './options.ts';
import { blueskyEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

export interface BlueskySettings {
  /** The service logins go to (CRIER_BLUESKY_SERVICE); an account's own PDS is learnt at login. */
  service: string;
}

export const bluesky: Network<BlueskySettings> = {
  id: 'bluesky',
  label: 'Bluesky',
  options,
  media,
  connect: {
    kind: 'password',
    async login({ settings, allowLoopbackFetch }, input) {
      const identity = await loginWithAppPassword(settings.service, input.handle.replace(/^@/, ''), input.appPassword, { allowLoopback: allowLoopbackFetch });
      return {
        username: identity.handle,
        networkUniqueId: identity.did,
        serviceUrl: identity.serviceUrl,
        credential: input.appPassword,
        accessToken: identity.accessJwt,
        refreshToken: identity.refreshJwt,
      };
    },
  },
  // meta-x-linkedin-bluesky.md §6: 5,000 write points per hour per DID, a create costs 3 (about 1,666 an hour), and each post of a thread is a create.
  limits: { accountQuota: { max: 1_666, windowMs: 3_600_000, counts: 'containers' } },
  publisher: ({ settings }) => lazyAdapter('bluesky', '@atproto/api (publishing to Bluesky)', async () => {
    const { createBlueskyAdapter } = await import('./adapter.ts');
    return createBlueskyAdapter({ service: settings.service });
  }),
  capabilities: ({ settings }) => lazyCapabilities('the Bluesky engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true, legacy: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).blueskyCapabilities(settings.service)),
  config: {
    variables: ['CRIER_BLUESKY_SERVICE'],
    read: (env) => ({ service: env.url('CRIER_BLUESKY_SERVICE', 'https://bsky.social') }),
  },
  sandbox: { emulator: blueskyEmulator, env: (url) => ({ CRIER_BLUESKY_SERVICE: url }) },
  // AT Protocol lexicons are not versioned by date: a lexicon changes only compatibly.
  apiVersions: [],
};
