// TikTok: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlNetwork } from '../base-url.ts';
import { media } from './media.ts';
import { createTikTokOAuth } from './oauth.ts';
import { options } from './options.ts';
import { tiktokEmulator } from './sandbox.ts';

export const tiktok = baseUrlNetwork({
  id: 'tiktok', label: 'TikTok', options, media, oauth: createTikTokOAuth, emulator: tiktokEmulator,
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §2.2: video and photo init, 6 per minute per user token.
  limits: { accountQuota: { max: 6, windowMs: 60_000, counts: 'posts' } },
});
