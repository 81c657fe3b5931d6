// A video's comments, one tier deep (api.yaml get_comments, create_comment, get_comment_replies,
// create_comment_reply). Any member who may see the video (state.ts canView) reads them; writing
// needs the `interact` scope and the video's privacy.comments to let the caller in (commentRefusal).
import type { FastifyRequest } from 'fastify';
import { isPlainObject, jsonBody, type Reply } from '../../shared/http.ts';
import { cannotComment, commentNotFound, commentsDisabled, commentTextMissing, missingScope } from '../errors.ts';
import { commentJson } from '../objects.ts';
import { commentRefusal, type VimeoComment, type VimeoVideo } from '../state.ts';
import { queryOf } from '../validate.ts';
import { page, withVideo, type Member, type VimeoContext, type VimeoRoute } from './context.ts';

export function commentRoutes(ctx: VimeoContext): VimeoRoute[] {
  const { store } = ctx;
  const commentOut = (video: VimeoVideo, c: VimeoComment) => commentJson(c, ctx.userOf(c.userId), video.comments.filter((r) => r.parentId === c.id).length);
  /** Newest first unless `direction=asc`, paged. */
  const listed = (req: FastifyRequest, path: string, video: VimeoVideo, comments: VimeoComment[]) => {
    const out = comments.map((c) => commentOut(video, c));
    if (queryOf(req).direction !== 'asc') out.reverse();
    return page(req, path, out);
  };
  /** The comment's text, or Vimeo's refusal: no text 400 2207, comments off 403 3413, closed to the caller 403 3412. */
  const commentBody = (req: FastifyRequest, member: Member, video: VimeoVideo): string | Reply => {
    const body = jsonBody(req.body);
    const text = isPlainObject(body) && typeof body.text === 'string' ? body.text : '';
    if (!text.trim()) return commentTextMissing();
    const refusal = commentRefusal(video, member.id);
    if (refusal) return refusal === 'disabled' ? commentsDisabled() : cannotComment();
    return text;
  };
  const parentOf = (req: FastifyRequest, video: VimeoVideo) => store.topLevel(video, (req.params as { commentId: string }).commentId);

  return [
    {
      method: 'POST', url: '/videos/:id/comments', handler: (req) => withVideo(ctx, req, (member, video) => {
        // api.yaml: create_comment(_reply) needs the `interact` scope.
        if (!member.scopes.includes('interact')) return missingScope('interact');
        const text = commentBody(req, member, video);
        if (typeof text !== 'string') return text;
        return { status: 201, body: commentOut(video, store.addComment(video, member.id, text)) };
      }),
    },
    {
      method: 'GET', url: '/videos/:id/comments', handler: (req) => withVideo(ctx, req, (_member, video) =>
        listed(req, `/videos/${video.id}/comments`, video, video.comments.filter((c) => c.parentId === null))),
    },
    {
      method: 'POST', url: '/videos/:id/comments/:commentId/replies', handler: (req) => withVideo(ctx, req, (member, video) => {
        if (!member.scopes.includes('interact')) return missingScope('interact');
        const parent = parentOf(req, video);
        if (!parent) return commentNotFound();
        const text = commentBody(req, member, video);
        if (typeof text !== 'string') return text;
        return { status: 201, body: commentOut(video, store.addComment(video, member.id, text, parent.id)) };
      }),
    },
    {
      method: 'GET', url: '/videos/:id/comments/:commentId/replies', handler: (req) => withVideo(ctx, req, (_member, video) => {
        const parent = parentOf(req, video);
        if (!parent) return commentNotFound();
        return listed(req, `/videos/${video.id}/comments/${parent.id}/replies`, video, video.comments.filter((c) => c.parentId === parent.id));
      }),
    },
  ];
}
