// API key roles: what a key may do, by route. Least privilege: a route that writes is open only to the
// roles listed for it here, and a route missing from the table is open to admin keys alone, so a new
// route is closed to editors and approvers until it is given its place.
//
// | role     | may                                                                                     |
// |----------|-----------------------------------------------------------------------------------------|
// | admin    | everything (every key made before roles existed, and the CLI's and first start's keys)  |
// | editor   | read everything; write posts (create, reschedule, cancel, replies, remote edit, delete),|
// |          | media, queues, recurrences, evergreen collections, conversations, imports and the       |
// |          | sandbox's simulations                                                                   |
// | approver | read everything; approve or reject posts waiting for approval                           |
//
// Admin alone: API keys (create, revoke), webhooks (create, change, delete, test, redeliver), the
// organization's settings (PATCH /v1/settings), connecting and removing social accounts and the
// networks' app credentials, and granting an MCP client access (its grant acts with full rights).
// Reading (GET) is open to every role: listing keys and webhooks shows no secret.
import type { FastifyInstance } from 'fastify';
import { RequestError } from '../core/errors.ts';

export const ROLES = ['admin', 'editor', 'approver'] as const;
export type Role = (typeof ROLES)[number];

const ADMIN: readonly Role[] = ['admin'];
const EDITORS: readonly Role[] = ['admin', 'editor'];
const APPROVERS: readonly Role[] = ['admin', 'approver'];
const EVERYONE: readonly Role[] = ROLES;

/** Who may call each route that is not a read, by `METHOD /route/:pattern` (routes missing here: admin). */
export const WRITE_ROUTES: Record<string, readonly Role[]> = {
  // The MCP transport: its tool calls reach the /v1 routes below with the same key, and are checked there.
  'POST /mcp': EVERYONE,
  'DELETE /mcp': EVERYONE,

  'POST /v1/posts': EDITORS,
  'POST /v1/posts/bulk': EDITORS,
  'POST /v1/posts/bulk/:id/cancel': EDITORS,
  'PATCH /v1/posts/:id': EDITORS,
  'DELETE /v1/posts/:id': EDITORS,
  'DELETE /v1/posts/:id/remote': EDITORS,
  'PATCH /v1/posts/:id/remote': EDITORS,
  'POST /v1/posts/:id/replies': EDITORS,
  'POST /v1/posts/:id/approve': APPROVERS,
  'POST /v1/posts/:id/reject': APPROVERS,

  'POST /v1/media/upload': EDITORS,
  'POST /v1/media/import': EDITORS,
  'POST /v1/media/:id/confirm': EDITORS,
  'DELETE /v1/media/:id': EDITORS,

  'POST /v1/queues': EDITORS,
  'PATCH /v1/queues/:id': EDITORS,
  'DELETE /v1/queues/:id': EDITORS,

  'POST /v1/recurrences': EDITORS,
  'PATCH /v1/recurrences/:id': EDITORS,
  'DELETE /v1/recurrences/:id': EDITORS,

  'POST /v1/evergreen-collections': EDITORS,
  'PATCH /v1/evergreen-collections/:id': EDITORS,
  'DELETE /v1/evergreen-collections/:id': EDITORS,
  'POST /v1/evergreen-collections/:id/items': EDITORS,
  'DELETE /v1/evergreen-collections/:id/items/:itemId': EDITORS,

  'POST /v1/conversations': EDITORS,
  'POST /v1/conversations/:id/messages': EDITORS,
  'POST /v1/social-accounts/:id/imports': EDITORS,
  'POST /v1/sandbox/posts/:id/comments': EDITORS,
  'POST /v1/sandbox/social-accounts/:id/messages': EDITORS,

  'POST /v1/api-keys': ADMIN,
  'DELETE /v1/api-keys/:id': ADMIN,
  'PATCH /v1/settings': ADMIN,
  'POST /v1/webhooks': ADMIN,
  'PATCH /v1/webhooks/:id': ADMIN,
  'DELETE /v1/webhooks/:id': ADMIN,
  'POST /v1/webhooks/:id/test': ADMIN,
  'POST /v1/webhooks/deliveries/:id/redeliver': ADMIN,
  'POST /v1/social-networks': ADMIN,
  'DELETE /v1/social-networks/:id': ADMIN,
  'POST /v1/social-networks/:network/auth-url': ADMIN,
  'POST /v1/social-accounts/pending/:token/finalize': ADMIN,
  'DELETE /v1/social-accounts/:id': ADMIN,
  'POST /v1/oauth/consent': ADMIN,
};

/** The roles that may call `method` on the route registered as `url`. */
export function rolesAllowed(method: string, url: string): readonly Role[] {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return EVERYONE;
  return WRITE_ROUTES[`${method} ${url}`] ?? ADMIN;
}

/** Whether a string is a role (a key's column, a request's field). */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Refuses, with a 403 naming the roles that may, a request whose key's role may not call its route.
 * Installed after authentication (request.owner is set); routes that take no key are left alone.
 */
export function installRoleCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    // Unset on a route that takes no key (the auth hook lets those through).
    const owner = (request as { owner?: { role: Role } }).owner;
    const url = request.routeOptions.url;
    if (!owner || url === undefined || request.routeOptions.config?.apiKey === false) return;
    const allowed = rolesAllowed(request.method, url);
    if (allowed.includes(owner.role)) return;
    throw forbiddenRole(owner.role, allowed, `${request.method} ${url}`);
  });
}

function forbiddenRole(role: Role, allowed: readonly Role[], action: string): RequestError {
  const needed = allowed.join(' or ');
  return new RequestError(403, `This API key's role is ${role}; ${action} needs a key with the role ${needed}`, {
    code: 'forbidden_role',
    details: [{ field: 'role', message: `is ${role}; needs ${needed}` }],
  });
}
