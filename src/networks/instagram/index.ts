// Instagram: everything Crier knows of it (the contract: ../contract.ts). Publishing to it is not available yet.
import { baseUrlNetwork } from '../base-url.ts';
import { facebookEmulator } from '../facebook/sandbox.ts';
import { media } from './media.ts';
import { createInstagramOAuth } from './oauth.ts';
import { options } from './options.ts';

export const instagram = baseUrlNetwork({
  id: 'instagram', label: 'Instagram', options, media, oauth: createInstagramOAuth, emulator: facebookEmulator,
  // meta-x-linkedin-bluesky.md §3: media_publish allows 50 posts per 24 h (the account's
  // content_publishing_limit is what to trust).
  limits: { accountQuota: { max: 50, windowMs: 24 * 3_600_000, counts: 'posts' } },
});
