// Pinterest: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlConfig, baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { createPinterestOAuth } from './oauth.ts';
import { options } from './options.ts';
import { pinterestCapabilities } from './capabilities.ts';
import { pinterestEmulator } from './sandbox.ts';

const API_URL = 'https://api.pinterest.com';
/** GET /v1/social-accounts/:id/boards (boards.ts lists them). */
/**
 * Where pins are created and boards read, when not api.pinterest.com: an app with Trial access may not
 * create pins in production and is told to use https://api-sandbox.pinterest.com (Pinterest's 403
 * code 29 says so; developers.pinterest.com "Sandbox").
 */
const API_URL_VARIABLE = 'CRIER_PINTEREST_API_URL';

export interface PinterestSettings extends BaseUrlSettings {
  apiUrl?: string;
}

const base = baseUrlNetwork({
  id: 'pinterest', label: 'Pinterest', options, media, oauth: createPinterestOAuth, emulator: pinterestEmulator,
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §4.5: limits are per app (Trial 1,000 requests a
  // day) and per user per app per category (Standard), not a number of posts per account.
  limits: {},
});

/** The API publishing and the boards listing call: CRIER_PINTEREST_API_URL, else the base URL, else Pinterest's. */
const apiUrlOf = (settings: PinterestSettings) => settings.apiUrl ?? settings.baseUrl ?? API_URL;

export const pinterest: Network<PinterestSettings> = {
  ...base,
  config: {
    variables: [...baseUrlConfig('pinterest').variables, API_URL_VARIABLE],
    read(env) {
      const apiUrl = env.optionalUrl(API_URL_VARIABLE);
      return { ...baseUrlConfig('pinterest').read(env), ...(apiUrl ? { apiUrl } : {}) };
    },
  },
  publisher: ({ settings, publicBaseUrl }) => lazyAdapter('pinterest', 'the Pinterest adapter', async () => (await import('./adapter.ts')).createPinterestAdapter({
    apiUrl: apiUrlOf(settings), publicBaseUrl, realNetwork: settings.baseUrl === undefined,
  })),
  // The boards a client picks `pinterest.board_id` from, and what Pinterest offers after publishing
  // (capabilities.ts; baseUrlNetwork assembles none).
  capabilities: ({ settings }) => pinterestCapabilities(apiUrlOf(settings)),
  // Pinterest's /v5/ has no documented end.
  apiVersions: [],
};
