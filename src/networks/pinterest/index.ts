// Pinterest: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { createPinterestAdapter } from './adapter.ts';
import { boardsListing } from './boards.ts';
import { media } from './media.ts';
import { createPinterestOAuth } from './oauth.ts';
import { options } from './options.ts';
import { pinterestEmulator } from './sandbox.ts';

const API_URL = 'https://api.pinterest.com';

export const pinterest: Network<BaseUrlSettings> = {
  ...baseUrlNetwork({
    id: 'pinterest', label: 'Pinterest', options, media, oauth: createPinterestOAuth, emulator: pinterestEmulator,
    publisher: (baseUrl, ctx) => createPinterestAdapter({ apiUrl: baseUrl ?? API_URL, publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined }),
    // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §4.5: limits are per app (Trial 1,000 requests a
    // day) and per user per app per category (Standard), not a number of posts per account.
    limits: {},
  }),
  // The boards a client picks `pinterest.board_id` from (baseUrlNetwork assembles no capabilities).
  capabilities: ({ settings }) => ({ listings: [boardsListing(settings.baseUrl ?? API_URL)] }),
};
