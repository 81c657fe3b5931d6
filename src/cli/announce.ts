// What `crier start` prints for people, whatever LOG_LEVEL is, once Crier is running.
import type { Roles, Running } from '../runtime.ts';
import { CRIER_COMMAND } from './usage.ts';

/**
 * The human lines a start prints whatever LOG_LEVEL is (operators and scripts wait for them): on the
 * start that created the default org, its admin key, the only time it is shown; on every later
 * start, how to make a key, so a key lost with a failed or unread first start is never a dead end.
 */
export function announceStart({ defaultOrg, baseUrl, embeddedDatabase }: Running, roles: Roles): void {
  if (defaultOrg.created) announceFirstStart(defaultOrg.created.apiKey, baseUrl, embeddedDatabase);
  const served = roles.api ? `API ${baseUrl}/v1, docs ${baseUrl}/docs, dashboard ${baseUrl}/` : 'no HTTP API in this process';
  process.stdout.write(`Crier is running (${[roles.api && 'api', roles.worker && 'worker'].filter(Boolean).join(' + ')}): ${served}\n`);
  if (!defaultOrg.created) {
    process.stdout.write(`API keys are shown only when made. A new one for the default organization: ${CRIER_COMMAND} key create --org ${defaultOrg.orgId} --name <name>\n`);
  }
}

/** Printed once, on the first start of an empty database: the only time the admin key is shown. */
function announceFirstStart(apiKey: string, baseUrl: string, embeddedDatabase: boolean): void {
  process.stdout.write(
    [
      '',
      'Crier is ready. This is the first start, so a default organization was created.',
      '',
      `  Admin API key (shown once, store it now): ${apiKey}`,
      '',
      `  API:   ${baseUrl}/v1`,
      `  Dashboard: ${baseUrl}/   (sign in with the key above)`,
      `  Docs:  ${baseUrl}/docs   (OpenAPI: ${baseUrl}/openapi.json)`,
      `  Database: ${embeddedDatabase ? 'embedded PostgreSQL under the data directory' : 'DATABASE_URL'}`,
      '',
      `  Try it: curl -H "Authorization: Bearer ${apiKey}" ${baseUrl}/v1/social-accounts`,
      '',
    ].join('\n') + '\n',
  );
}
