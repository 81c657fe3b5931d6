// What the dashboard's consent page shows before a user approves a client: who asks (its name, which
// it chose itself, and the scheme and host its code goes to, which it cannot fake), and for which
// organization.
import { encodeId } from '../core/ids.ts';
import type { Queryable } from '../db/pool.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import { returnAddress, type ReturnKind } from './redirect-uris.ts';

export interface ConsentDetails {
  client: { id: string; name: string };
  redirectUri: string;
  /** Where the browser, and the code, will go: scheme and host (`https://agent.example`, `cursor://anysphere.cursor-retrieval`). */
  returnTo: string;
  /** A web site, a program listening on this computer (loopback), or the application that claims the scheme. */
  returnKind: ReturnKind;
  organization: { id: string; name: string };
}

export async function consentDetails(db: Queryable, request: AuthorizationRequest, orgId: number): Promise<ConsentDetails> {
  const org = await db.query<{ name: string }>('SELECT name FROM orgs WHERE id = $1', [orgId]);
  const back = returnAddress(request.redirectUri);
  return {
    client: { id: request.client.clientId, name: request.client.name },
    redirectUri: request.redirectUri,
    returnTo: back.address,
    returnKind: back.kind,
    organization: { id: encodeId(orgId), name: org.rows[0]?.name ?? '' },
  };
}
