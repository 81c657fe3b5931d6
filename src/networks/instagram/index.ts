// Instagram: everything Crier knows of it (the contract: ../contract.ts).
import { GRAPH_API_VERSION } from '../meta/graph-version.ts';
import { baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { facebookEmulator } from '../facebook/sandbox.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';
import { media } from './media.ts';
import { instagramInbound } from './inbound.ts';
import { createInstagramOAuth, MESSAGING_SCOPES } from './oauth.ts';
import { options } from './options.ts';

const base = baseUrlNetwork({
  id: 'instagram', label: 'Instagram', options, media, oauth: createInstagramOAuth, emulator: facebookEmulator,
  loginConfiguration: 'a Facebook Login for Business configuration id (Business apps)',
  // Instagram downloads media from the URLs it is given: from Crier's PUBLIC_BASE_URL for Crier's own.
  publisher: (baseUrl, ctx) => lazyAdapter('instagram', 'the Instagram adapter', async () => (await import('./adapter.ts')).createInstagramAdapter({
    apiUrl: baseUrl ?? 'https://graph.facebook.com',
    publicUrl: { publicBaseUrl: ctx.publicBaseUrl, realNetwork: baseUrl === undefined },
  })),
  // 50 posts per moving 24 h: Meta's IG User Media Publish reference ("can only publish 50 posts within
  // a 24 hour moving period") and content_publishing_limit (`quota_total`, "currently 50"); the figure
  // 100 some third parties quote from the publishing guide is not on either reference. The account's
  // content_publishing_limit is what to trust: the adapter reads it before creating containers.
  limits: { accountQuota: { max: 50, windowMs: 24 * 3_600_000, counts: 'posts' } },
});

export const instagram: Network<BaseUrlSettings> = {
  ...base,
  // baseUrlNetwork assembles no capabilities. Deleting, own media, comments and figures: capabilities.ts;
  // comments and direct messages arriving as Meta webhooks: inbound.ts; messages sent with the Page token: messaging.ts.
  // Loaded on first use, but for the webhook checks (synchronous) and the messaging scopes a connect asks.
  capabilities: ({ settings }) => lazyCapabilities('the Instagram engagement module', {
    remove: true, ownPosts: true, comments: { list: true, reply: true, legacy: true }, analytics: { post: true, account: true }, messages: { send: true, contact: true },
  }, async () => {
    const apiUrl = settings.baseUrl ?? 'https://graph.facebook.com';
    const [{ instagramCapabilities }, { instagramMessaging }] = await Promise.all([import('./capabilities.ts'), import('./messaging.ts')]);
    return { ...instagramCapabilities(apiUrl), messages: instagramMessaging(apiUrl) };
  }, { inbound: instagramInbound, messages: { scopes: MESSAGING_SCOPES } }),
  apiVersions: [GRAPH_API_VERSION],
};
