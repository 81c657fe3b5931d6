// YouTube: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlNetwork } from '../base-url.ts';
import { googleEmulator } from '../google/sandbox.ts';
import { media } from './media.ts';
import { createYoutubeOAuth } from './oauth.ts';
import { options } from './options.ts';

export const youtube = baseUrlNetwork({
  id: 'youtube', label: 'YouTube', options, media, oauth: createYoutubeOAuth, emulator: googleEmulator,
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §1.6: quota belongs to the Cloud project, shared by
  // every account; the per-channel upload caps are unpublished.
  limits: {},
});
