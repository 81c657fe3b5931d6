// Discord: everything Crier knows of it (the contract: ../contract.ts). An account is a channel
// webhook, connected with its URL (no bot, no OAuth), or a bot in a server channel, connected with its
// token and the channel's id; either posts to its one channel (or a thread of it, or a new forum post).
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';
import { ORIGIN } from './client.ts';
import { connectDiscord, DISCORD_FIELDS } from './connect.ts';
import { media } from './media.ts';
import { options } from './options.ts';
import { discordEmulator } from './sandbox.ts';

export const discord: Network<BaseUrlSettings> = {
  id: 'discord',
  label: 'Discord',
  options,
  media,
  connect: {
    kind: 'password',
    fields: DISCORD_FIELDS,
    login: ({ settings }, input) => connectDiscord(settings.baseUrl, input),
  },
  // Rate limits (https://discord.com/developers/docs/topics/rate-limits) are per route and answered
  // in headers, not documented as figures; a webhook's bucket is commonly 5 requests per 2 seconds and
  // 30 messages a minute per channel. A bot's only documented figure is the global limit, 50 requests
  // a second per bot, far above this; its per-route buckets are answered in headers. Each container is
  // a message; a 429 is waited out either way.
  limits: { accountQuota: { max: 30, windowMs: 60_000, counts: 'containers' } },
  publisher: ({ settings }) => lazyAdapter('discord', 'the Discord adapter', async () => (await import('./adapter.ts')).createDiscordAdapter({
    origin: settings.baseUrl ?? ORIGIN,
    configured: settings.baseUrl,
  })),
  capabilities: ({ settings }) => lazyCapabilities('the Discord engagement module', { remove: true, edit: true },
    async () => (await import('./capabilities.ts')).discordCapabilities(settings.baseUrl ?? ORIGIN, settings.baseUrl)),
  config: baseUrlConfig('discord'),
  sandbox: baseUrlSandbox('discord', discordEmulator),
  // /api/v10/ (https://discord.com/developers/docs/reference#api-versioning) has no documented end:
  // Discord marks a version deprecated, then discontinued, without dates announced ahead.
  apiVersions: [],
};
