// POST /me/videos (api.yaml upload_video_alt1) with the tus approach: the body checked as api.yaml
// describes it (validate.ts), the member's upload quota checked, the video created with its
// `upload.upload_link` (the tus endpoint, routes/tus.ts).
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import { malformedBody, missingScope, quotaReached } from '../errors.ts';
import { videoJson } from '../objects.ts';
import { checkCreation, isReply } from '../validate.ts';
import type { VimeoContext, VimeoRoute } from './context.ts';

export function uploadRoutes(ctx: VimeoContext): VimeoRoute[] {
  return [{
    method: 'POST', url: '/me/videos', handler: (req) => {
      const member = ctx.authenticate(req);
      if (isReply(member)) return member;
      // api.yaml: upload_video needs the `upload` scope.
      if (!member.scopes.includes('upload')) return missingScope('upload');
      const body = jsonBody(req.body);
      if (!isPlainObject(body)) return malformedBody();
      const checked = checkCreation(body, member);
      if (isReply(checked)) return checked;
      const quota = ctx.store.quotaOf(member.id);
      if (checked.size > quota.free) return quotaReached(checked.size, quota.free);
      const video = ctx.store.create({ ownerId: member.id, ...checked });
      return { status: 201, body: videoJson(video, ctx.origin(), ctx.userOf(video.ownerId)), headers: { location: `/videos/${video.id}` } };
    },
  }];
}
