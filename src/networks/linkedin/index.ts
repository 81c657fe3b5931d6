// LinkedIn: everything Crier knows of it (the contract: ../contract.ts).
import { LINKEDIN_API_VERSION } from './oauth.ts';
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createLinkedInOAuth } from './oauth.ts';
import { options } from './options.ts';
import { linkedinEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const API_URL = 'https://api.linkedin.com';

export const linkedin: Network<BaseUrlSettings> = {
  ...baseUrlNetwork({
    id: 'linkedin', label: 'LinkedIn', options, media, oauth: createLinkedInOAuth, emulator: linkedinEmulator,
    publisher: (baseUrl) => lazyAdapter('linkedin', 'the LinkedIn adapter', async () => (await import('./adapter.ts')).createLinkedInAdapter({ apiUrl: baseUrl ?? API_URL })),
    // meta-x-linkedin-bluesky.md §5.3: daily per-member quotas, unpublished; aggregators report about 150
    // member posts a day.
    limits: { accountQuota: { max: 150, windowMs: 24 * 3_600_000, counts: 'posts' } },
  }),
  capabilities: ({ settings }) => lazyCapabilities('the LinkedIn engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).linkedinCapabilities(settings.baseUrl ?? API_URL)),
  apiVersions: [LINKEDIN_API_VERSION],
};
