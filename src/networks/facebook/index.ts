// Facebook: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { facebookEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createFacebookOAuth } from './oauth.ts';
import { options } from './options.ts';

export const facebook: Network<BaseUrlSettings> = {
  id: 'facebook',
  label: 'Facebook',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createFacebookOAuth(settings.baseUrl) },
  // meta-x-linkedin-bluesky.md §4.3: Page calls fall under usage-based limits (BUC headers); only Reels
  // have a count (30 per Page per 24 h), which does not pace other posts.
  limits: {},
  config: baseUrlConfig('facebook'),
  sandbox: baseUrlSandbox('facebook', facebookEmulator),
};
