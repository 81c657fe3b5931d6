// Vimeo: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createVimeoOAuth } from './oauth.ts';
import { options } from './options.ts';
import { vimeoEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const API_URL = 'https://api.vimeo.com';

const base = baseUrlNetwork({
  id: 'vimeo', label: 'Vimeo', options, media, oauth: createVimeoOAuth, emulator: vimeoEmulator,
  publisher: (baseUrl) => lazyAdapter('vimeo', 'the Vimeo adapter', async () => (await import('./adapter.ts')).createVimeoAdapter({ apiUrl: baseUrl ?? API_URL })),
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §5: the plan's upload quota, no per-account pace.
  limits: {},
});

export const vimeo: Network<BaseUrlSettings> = {
  ...base,
  // Engagement (capabilities.ts): delete, own videos, comments one tier deep, video and member figures.
  capabilities: ({ settings }) => lazyCapabilities('the Vimeo engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true, legacy: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).vimeoCapabilities(settings.baseUrl ?? API_URL)),
  // Vimeo's API 3.4 (Accept header) has no documented end.
  apiVersions: [],
};
