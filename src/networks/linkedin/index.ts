// LinkedIn: everything Crier knows of it (the contract: ../contract.ts). Its settings are the base URL
// every network reads (CRIER_LINKEDIN_BASE_URL: the emulator in tests and the sandbox) and the scopes
// connects ask for when the app registered none (CRIER_LINKEDIN_SCOPES; oauth.ts says which LinkedIn
// product grants which scope).
import { LINKEDIN_API_VERSION, createLinkedInOAuth } from './oauth.ts';
import { baseUrlConfig, baseUrlNetwork, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import type { NetworkEnv } from '../../config.ts';
import { lazyAdapter } from '../lazy-adapter.ts';
import { media } from './media.ts';
import { options } from './options.ts';
import { linkedinEmulator } from './sandbox.ts';
import { lazyCapabilities } from '../lazy-capabilities.ts';

const API_URL = 'https://api.linkedin.com';
/**
 * The scopes connects ask for, space- or comma-separated, replacing LINKEDIN_SCOPES for the operator's
 * app (CRIER_LINKEDIN_CLIENT_ID) and for an organization's app registered without `scopes`. An app
 * with only "Share on LinkedIn" and "Sign In with LinkedIn using OpenID Connect" sets
 * `openid profile email w_member_social`: LinkedIn refuses an authorization asking for a scope of a
 * product the app lacks (the Community Management API's organization scopes), so no one could connect.
 */
const SCOPES_VARIABLE = 'CRIER_LINKEDIN_SCOPES';

export interface LinkedInSettings extends BaseUrlSettings {
  /** Undefined: LINKEDIN_SCOPES. */
  scopes?: readonly string[];
}

/** CRIER_LINKEDIN_SCOPES as a list; undefined when unset or empty (LINKEDIN_SCOPES then). */
export function readScopes(env: NetworkEnv): readonly string[] | undefined {
  const listed = [...new Set((env.text(SCOPES_VARIABLE) ?? '').split(/[\s,]+/).filter(Boolean))];
  return listed.length ? listed : undefined;
}

const base = baseUrlNetwork({
  id: 'linkedin', label: 'LinkedIn', options, media, oauth: createLinkedInOAuth, emulator: linkedinEmulator,
  publisher: (baseUrl) => lazyAdapter('linkedin', 'the LinkedIn adapter', async () => (await import('./adapter.ts')).createLinkedInAdapter({ apiUrl: baseUrl ?? API_URL })),
  // meta-x-linkedin-bluesky.md §5.3: daily per-member quotas, unpublished; aggregators report about 150
  // member posts a day.
  limits: { accountQuota: { max: 150, windowMs: 24 * 3_600_000, counts: 'posts' } },
});

export const linkedin: Network<LinkedInSettings> = {
  ...(base as Omit<Network<LinkedInSettings>, 'apiVersions'>),
  connect: { ...base.connect, kind: 'oauth', oauth: ({ settings }) => createLinkedInOAuth(settings.baseUrl, settings.scopes) },
  config: {
    variables: [...baseUrlConfig('linkedin').variables, SCOPES_VARIABLE],
    read(env) {
      const scopes = readScopes(env);
      return { ...baseUrlConfig('linkedin').read(env), ...(scopes ? { scopes } : {}) };
    },
  },
  capabilities: ({ settings }) => lazyCapabilities('the LinkedIn engagement module', { remove: true, ownPosts: true, comments: { list: true, reply: true }, analytics: { post: true, account: true } },
    async () => (await import('./capabilities.ts')).linkedinCapabilities(settings.baseUrl ?? API_URL)),
  apiVersions: [LINKEDIN_API_VERSION],
};
