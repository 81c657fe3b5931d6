// TikTok: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { tiktokEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createTikTokOAuth } from './oauth.ts';
import { options } from './options.ts';

export const tiktok: Network<BaseUrlSettings> = {
  id: 'tiktok',
  label: 'TikTok',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createTikTokOAuth(settings.baseUrl) },
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §2.2: video and photo init, 6 per minute per user token.
  limits: { accountPacingMs: 10_000 },
  config: baseUrlConfig('tiktok'),
  sandbox: baseUrlSandbox('tiktok', tiktokEmulator),
};
