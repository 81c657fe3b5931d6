// What the dashboard's consent page shows before a user approves a client: who asks (its name, which
// it chose itself, and the host its codes go to, which it cannot fake), and for which organization.
import { encodeId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import type { AuthorizationRequest } from './authorization-request.ts';

export interface ConsentDetails {
  client: { id: string; name: string };
  redirectUri: string;
  /** Where the browser, and the code, will go. */
  redirectHost: string;
  organization: { id: string; name: string };
}

export async function consentDetails(db: Queryable, request: AuthorizationRequest, orgId: number): Promise<ConsentDetails> {
  const org = await db.query<{ name: string }>('SELECT name FROM orgs WHERE id = $1', [orgId]);
  return {
    client: { id: request.client.clientId, name: request.client.name },
    redirectUri: request.redirectUri,
    redirectHost: new URL(request.redirectUri).host,
    organization: { id: encodeId(orgId), name: org.rows[0]?.name ?? '' },
  };
}
