// GET /v1.0/me?fields=…: the Threads user the token belongs to. The token comes from the
// `access_token` query parameter or an `Authorization: Bearer|OAuth <token>` header; only the
// requested fields are returned (id when `fields` is absent), as Graph nodes do.
import { checkToken } from './oauth.ts';
import { invalidParameter, metaError, noActiveToken, unknownPath } from '../errors.ts';
import type { ThreadsUser, ThreadsWorld } from '../state.ts';
import type { ThreadsRoute } from './route.ts';

const FIELDS: Record<string, (user: ThreadsUser) => unknown> = {
  id: (u) => u.id,
  username: (u) => u.username,
  name: (u) => u.name,
  threads_profile_picture_url: (u) => u.profilePictureUrl ?? undefined,
  threads_biography: (u) => u.biography,
  is_verified: (u) => u.isVerified,
};

export function tokenOf(query: Record<string, string | undefined>, authorization: string | string[] | undefined): string | null {
  if (query.access_token) return query.access_token;
  const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(typeof authorization === 'string' ? authorization : '');
  return match ? match[1]! : null;
}

export function profileRoutes(world: ThreadsWorld): ThreadsRoute[] {
  return [
    {
      method: 'GET',
      url: '/:version/me',
      handler: ({ query, headers, params }) => {
        if (!/^v\d+\.\d+$/.test(params.version ?? '')) return unknownPath();
        const token = tokenOf(query, headers.authorization);
        if (!token) return noActiveToken();
        const check = checkToken(world, token);
        if ('status' in check) return check;
        if (!check.scopes.includes('threads_basic')) return metaError('(#10) Application does not have permission for this action', 10, undefined, 403);
        const user = world.users.get(check.userId);
        if (!user) return noActiveToken();
        const fields = (query.fields ?? 'id').split(',').map((f) => f.trim()).filter(Boolean);
        const unknown = fields.find((f) => !FIELDS[f]);
        if (unknown) return invalidParameter(`(#100) Tried accessing nonexisting field (${unknown}) on node type (ThreadsUser)`);
        const out: Record<string, unknown> = {};
        for (const field of fields) {
          const value = FIELDS[field]!(user);
          if (value !== undefined) out[field] = value;
        }
        if (!('id' in out)) out.id = user.id;
        return { status: 200, body: out };
      },
    },
  ];
}
