// Vimeo: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { vimeoEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createVimeoOAuth } from './oauth.ts';
import { options } from './options.ts';

export const vimeo: Network<BaseUrlSettings> = {
  id: 'vimeo',
  label: 'Vimeo',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createVimeoOAuth(settings.baseUrl) },
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §5: the plan's upload quota, no per-account pace.
  limits: {},
  config: baseUrlConfig('vimeo'),
  sandbox: baseUrlSandbox('vimeo', vimeoEmulator),
};
