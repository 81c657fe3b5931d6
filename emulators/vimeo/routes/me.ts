// The member behind the token: GET /me (the user object with `upload_quota`, fields honoured) and
// DELETE /tokens (revokes the calling token: afterwards it answers 401 8003).
import { bearerToken } from '../../shared/http.ts';
import { pickFields, userJson } from '../objects.ts';
import { isReply, queryOf } from '../validate.ts';
import type { VimeoContext, VimeoRoute } from './context.ts';

export function meRoutes(ctx: VimeoContext): VimeoRoute[] {
  return [
    {
      method: 'GET', url: '/me', handler: (req) => {
        const member = ctx.authenticate(req);
        if (isReply(member)) return member;
        return { status: 200, body: pickFields(userJson(ctx.users.get(member.id)!, ctx.store, true), queryOf(req).fields) };
      },
    },
    {
      method: 'DELETE', url: '/tokens', handler: (req) => {
        const member = ctx.authenticate(req);
        if (isReply(member)) return member;
        ctx.oauth.revoke(bearerToken(req.headers.authorization)!);
        return { status: 204 };
      },
    },
  ];
}
