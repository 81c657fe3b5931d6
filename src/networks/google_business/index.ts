// Google Business Profile: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { googleEmulator } from '../google/sandbox.ts';
import { media } from './media.ts';
import { createGoogleBusinessOAuth } from './oauth.ts';
import { options } from './options.ts';

export const googleBusiness: Network<BaseUrlSettings> = {
  id: 'google_business',
  label: 'Google Business Profile',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createGoogleBusinessOAuth(settings.baseUrl) },
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md (summary table): 10 edits per minute per profile
  // (and 300 QPM per project).
  limits: { accountPacingMs: 6_000 },
  config: baseUrlConfig('google_business'),
  sandbox: baseUrlSandbox('google_business', googleEmulator),
};
