// LinkedIn: everything Crier knows of it (the contract: ../contract.ts).
import { baseUrlConfig, baseUrlSandbox, type BaseUrlSettings } from '../base-url.ts';
import type { Network } from '../contract.ts';
import { createLinkedInAdapter } from './adapter.ts';
import { linkedinEmulator } from './sandbox.ts';
import { media } from './media.ts';
import { createLinkedInOAuth } from './oauth.ts';
import { options } from './options.ts';

export const linkedin: Network<BaseUrlSettings> = {
  id: 'linkedin',
  label: 'LinkedIn',
  options,
  media,
  connect: { kind: 'oauth', oauth: ({ settings }) => createLinkedInOAuth(settings.baseUrl) },
  // meta-x-linkedin-bluesky.md §5.3: daily per-member quotas, unpublished; aggregators report about 150
  // member posts a day.
  limits: { accountPacingMs: 576_000 },
  publisher: ({ settings }) => createLinkedInAdapter({ apiUrl: settings.baseUrl ?? 'https://api.linkedin.com' }),
  config: baseUrlConfig('linkedin'),
  sandbox: baseUrlSandbox('linkedin', linkedinEmulator),
};
