// Vimeo: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork } from '../base-url.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createVimeoOAuth } from './oauth.ts';
import { options } from './options.ts';
import { vimeoEmulator } from './sandbox.ts';

export const vimeo = baseUrlNetwork({
  id: 'vimeo', label: 'Vimeo', options, media, oauth: createVimeoOAuth, emulator: vimeoEmulator,
  publisher: (baseUrl) => lazyAdapter('vimeo', 'the Vimeo adapter', async () => (await import('./adapter.ts')).createVimeoAdapter({ apiUrl: baseUrl ?? 'https://api.vimeo.com' })),
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §5: the plan's upload quota, no per-account pace.
  limits: {},
});
