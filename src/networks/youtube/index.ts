// YouTube: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { googleEmulator } from '../google/sandbox.ts';
import { media } from './media.ts';
import { createYoutubeOAuth } from './oauth.ts';
import { options } from './options.ts';

export const youtube: Network<BaseUrlSettings> = {
  id: 'youtube',
  label: 'YouTube',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createYoutubeOAuth(settings.baseUrl) },
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §1.6: quota belongs to the Cloud project, shared by
  // every account; the per-channel upload caps are unpublished.
  limits: {},
  config: baseUrlConfig('youtube'),
  sandbox: baseUrlSandbox('youtube', googleEmulator),
};
