// Pinterest: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { pinterestEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createPinterestOAuth } from './oauth.ts';
import { options } from './options.ts';

export const pinterest: Network<BaseUrlSettings> = {
  id: 'pinterest',
  label: 'Pinterest',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createPinterestOAuth(settings.baseUrl) },
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §4: limits are per app (Trial 1,000 requests a day),
  // not per account.
  limits: {},
  config: baseUrlConfig('pinterest'),
  sandbox: baseUrlSandbox('pinterest', pinterestEmulator),
};
