// DELETE /{threads-media-id} (delete-posts doc): a post or reply of the caller's → {success:true,
// deleted_id}; threads_delete is needed; at most 100 deletes per moving 24 h per profile (usage at
// GET /me/threads_publishing_limit?fields=delete_quota_usage,delete_config, publishing.ts). Deleting a
// root leaves the replies below it in place (their root_post still names it).
import type { Reply } from '../../shared/http.ts';
import { isReply, metaError, missingPermission, objectNotFound } from '../errors.ts';
import type { ThreadsWorld } from '../state.ts';
import { paramsOf, versionProblem } from '../validate.ts';
import { callerOf } from './caller.ts';
import type { ThreadsRoute } from './route.ts';

export function deleteRoutes(world: ThreadsWorld): ThreadsRoute[] {
  return [{
    method: 'DELETE',
    url: '/:version/:id',
    handler: (req) => {
      const params = paramsOf(req);
      const badVersion = versionProblem(req.params.version);
  if (badVersion) return badVersion;
      const caller = callerOf(world, req, params);
      if (isReply(caller)) return caller;
      if (!caller.scopes.includes('threads_delete')) return missingPermission('threads_delete');
      const index = world.publishing.media.findIndex((m) => m.id === req.params.id && m.userId === caller.userId);
      if (index < 0) return objectNotFound(req.params.id!);
      if (deletesUsed(world, caller.userId) >= world.engagement.deleteQuotaTotal) return deleteLimitReached(world.engagement.deleteQuotaTotal);
      const [media] = world.publishing.media.splice(index, 1);
      world.engagement.deletes.push({ userId: caller.userId, mediaId: media!.id, at: world.clock.now() });
      return { status: 200, body: { success: true, deleted_id: media!.id } };
    },
  }];
}

/** Deletes of the user in the moving window (the publishing limit's quota_duration). */
export function deletesUsed(world: ThreadsWorld, userId: string): number {
  const since = world.clock.now() - world.publishing.settings.quotaDurationSecs * 1000;
  return world.engagement.deletes.filter((d) => d.userId === userId && d.at > since).length;
}

// Not documented: the refusal past the delete limit. Code 9 ("application request limit") as the publishing limit's.
const deleteLimitReached = (total: number): Reply =>
  metaError(`The user has reached the limit of ${total} deletes through the API in 24 hours.`, 9, undefined, 400, 'OAuthException');
