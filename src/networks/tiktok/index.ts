// TikTok: everything Crier knows of it (the contract: ../contract.ts). Its settings are the base URL
// every network reads (CRIER_TIKTOK_BASE_URL: the emulator in tests and the sandbox) and the cap on
// distinct creators who direct-post through the app in 24 hours (cap.ts).
import { baseUrlConfig, baseUrlSandbox } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { creatorCapUsage, DEFAULT_CREATOR_CAP } from './cap.ts';
import { media } from './media.ts';
import { createTikTokOAuth } from './oauth.ts';
import { options } from './options.ts';
import { tiktokCapabilities } from './capabilities.ts';
import { tiktokEmulator } from './sandbox.ts';

export interface TikTokSettings {
  /** Undefined: TikTok's real hosts. */
  baseUrl: string | undefined;
  /** Distinct creators who may direct-post through the app in any 24 hours (TikTok: 5 for an unaudited app). */
  creatorCap: number;
  /** The first wait before asking TikTok whether a post is processed (doubling after). */
  statusPollMs: number;
}

const CREATOR_CAP = 'CRIER_TIKTOK_CREATOR_CAP';
const STATUS_POLL_MS = 'CRIER_TIKTOK_STATUS_POLL_MS';
const baseUrl = baseUrlConfig('tiktok');
const API_URL = 'https://open.tiktokapis.com';

export const tiktok: Network<TikTokSettings> = {
  id: 'tiktok',
  label: 'TikTok',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createTikTokOAuth(settings.baseUrl) },
  publisher: ({ settings, publicBaseUrl }) => lazyAdapter('tiktok', 'the TikTok adapter', async () => (await import('./adapter.ts')).createTikTokAdapter({
    apiUrl: settings.baseUrl ?? API_URL,
    creatorCap: settings.creatorCap,
    pollMs: settings.statusPollMs,
    publicUrl: { publicBaseUrl, realNetwork: settings.baseUrl === undefined },
  })),
  // After publishing (capabilities.ts): no delete and no comments (no such API for an ordinary app).
  capabilities: ({ settings }) => tiktokCapabilities(settings.baseUrl ?? API_URL),
  usage: ({ settings }, ledger, orgId) => creatorCapUsage(ledger, settings.creatorCap, orgId),
  // youtube-tiktok-gbp-pinterest-vimeo-reddit.md §2.2: video and photo init, 6 per minute per user token.
  limits: { accountQuota: { max: 6, windowMs: 60_000, counts: 'posts' } },
  config: {
    variables: [...baseUrl.variables, CREATOR_CAP, STATUS_POLL_MS],
    read: (env) => ({
      ...baseUrl.read(env),
      creatorCap: env.integer(CREATOR_CAP, DEFAULT_CREATOR_CAP, 1),
      statusPollMs: env.integer(STATUS_POLL_MS, 5000, 100),
    }),
  },
  sandbox: baseUrlSandbox('tiktok', tiktokEmulator),
  // TikTok's /v2/ has no documented end.
  apiVersions: [],
};
