// Mastodon: everything Crier knows of it (the contract: ../contract.ts). An account lives on an
// instance its owner names (any server of the federation), connected with an access token made there
// or through OAuth with an app Crier registers on that instance;
// every call to it goes through the SSRF guard (instance.ts).
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';
import { connectAccount, MASTODON_FIELDS } from './connect.ts';
import { media } from './media.ts';
import { mastodonOAuth } from './oauth.ts';
import { options } from './options.ts';
import { mastodonEmulator } from './sandbox.ts';

export const mastodon: Network<BaseUrlSettings> = {
  id: 'mastodon',
  label: 'Mastodon',
  options,
  media,
  connect: {
    kind: 'password',
    fields: MASTODON_FIELDS,
    login: ({ settings, allowLoopbackFetch }, input) => connectAccount({ trusted: settings.baseUrl, allowLoopback: allowLoopbackFetch }, input),
    // Or through OAuth on the instance the user names, with an app Crier registers there itself (oauth.ts).
    oauth: ({ settings, allowLoopbackFetch }) => mastodonOAuth({ trusted: settings.baseUrl, allowLoopback: allowLoopbackFetch }),
  },
  // https://docs.joinmastodon.org/api/rate-limits/: 300 calls per 5 minutes per account, and 30 media
  // uploads per 30 minutes; statuses have no quota of their own beyond those (deleting one: 30 per 30 min).
  limits: { accountQuota: { max: 300, windowMs: 5 * 60_000, counts: 'containers' } },
  publisher: ({ settings }) => lazyAdapter('mastodon', 'the Mastodon adapter', async () => (await import('./adapter.ts')).createMastodonAdapter({ trusted: settings.baseUrl })),
  capabilities: ({ settings }) => lazyCapabilities('the Mastodon engagement module',
    { remove: true, edit: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).mastodonCapabilities(settings.baseUrl)),
  // CRIER_MASTODON_BASE_URL names one instance the operator trusts (the sandbox's emulator): called without the guard.
  config: baseUrlConfig('mastodon'),
  sandbox: baseUrlSandbox('mastodon', mastodonEmulator),
  // The REST API is versioned by path (/api/v1, /api/v2) and changes compatibly; no version is pinned by date.
  apiVersions: [],
};
