// Telegram: everything Crier knows of it (the contract: ../contract.ts). An account is a channel or a
// group, connected with the token of a bot that administers it (Bots have no OAuth).
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';
import { API_URL } from './client.ts';
import { connectBot, TELEGRAM_FIELDS } from './connect.ts';
import { media } from './media.ts';
import { options } from './options.ts';
import { telegramEmulator } from './sandbox.ts';

export const telegram: Network<BaseUrlSettings> = {
  id: 'telegram',
  label: 'Telegram',
  options,
  media,
  connect: {
    kind: 'password',
    fields: TELEGRAM_FIELDS,
    login: ({ settings }, input) => connectBot(settings.baseUrl ?? API_URL, input),
  },
  // Bots FAQ (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this): no more
  // than 20 messages per minute to one group, about one a second to one chat; each container is a message.
  limits: { accountQuota: { max: 20, windowMs: 60_000, counts: 'containers' } },
  publisher: ({ settings, publicBaseUrl }) => lazyAdapter('telegram', 'the Telegram adapter', async () => (await import('./adapter.ts')).createTelegramAdapter({
    apiUrl: settings.baseUrl ?? API_URL,
    publicUrl: { publicBaseUrl, realNetwork: settings.baseUrl === undefined },
  })),
  capabilities: ({ settings }) => lazyCapabilities('the Telegram engagement module', { remove: true, edit: true },
    async () => (await import('./capabilities.ts')).telegramCapabilities(settings.baseUrl ?? API_URL)),
  config: baseUrlConfig('telegram'),
  sandbox: baseUrlSandbox('telegram', telegramEmulator),
  // The Bot API is not versioned by path or header: each release adds to it (https://core.telegram.org/bots/api-changelog).
  apiVersions: [],
};
