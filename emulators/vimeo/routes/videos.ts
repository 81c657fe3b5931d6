// A video (api.yaml get_video, edit_video, delete_video) and the member's videos (get_videos_alt1).
// Reading follows the video's privacy.view (state.ts canView): another member's public video is
// readable, a private one is answered as missing (404 5000). Editing and deleting stay the owner's:
// another member who can see the video is refused 403.
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import { malformedBody, missingScope, notVideoOwner } from '../errors.ts';
import { pickFields, videoJson } from '../objects.ts';
import type { VimeoVideo } from '../state.ts';
import { checkEdit, isReply, queryOf } from '../validate.ts';
import { page, withVideo, type VimeoContext, type VimeoRoute } from './context.ts';

export function videoRoutes(ctx: VimeoContext): VimeoRoute[] {
  const { store } = ctx;
  const json = (video: VimeoVideo, viewerId: string) => videoJson(video, ctx.origin(), ctx.userOf(video.ownerId), video.ownerId === viewerId);
  return [
    {
      method: 'GET', url: '/videos/:id', handler: (req) => withVideo(ctx, req, (member, video) => {
        store.observe(video);
        return { status: 200, body: pickFields(json(video, member.id), queryOf(req).fields) };
      }),
    },
    {
      method: 'GET', url: '/me/videos', handler: (req) => {
        const member = ctx.authenticate(req);
        if (isReply(member)) return member;
        const mine = [...store.videos.values()].filter((v) => v.ownerId === member.id).reverse();
        return page(req, '/me/videos', mine.map((v) => pickFields(json(v, member.id), queryOf(req).fields)));
      },
    },
    {
      // api.yaml edit_video: needs the `edit` scope; the fields Crier and the client set.
      method: 'PATCH', url: '/videos/:id', handler: (req) => withVideo(ctx, req, (member, video) => {
        if (!member.scopes.includes('edit')) return missingScope('edit');
        if (video.ownerId !== member.id) return notVideoOwner('edit');
        const body = jsonBody(req.body);
        if (!isPlainObject(body)) return malformedBody();
        const edit = checkEdit(body, member, video);
        if (isReply(edit)) return edit;
        Object.assign(video, { name: edit.name, description: edit.description, privacy: edit.privacy });
        return { status: 200, body: pickFields(json(video, member.id), queryOf(req).fields) };
      }),
    },
    {
      method: 'DELETE', url: '/videos/:id', handler: (req) => withVideo(ctx, req, (member, video) => {
        if (!member.scopes.includes('delete')) return missingScope('delete');
        if (video.ownerId !== member.id) return notVideoOwner('delete');
        store.remove(video);
        return { status: 204 };
      }),
    },
  ];
}
