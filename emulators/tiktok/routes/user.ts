// GET /v2/user/info/?fields=…: the TikTok user of the Bearer token, in the v2 envelope
// {"data":{"user":{…}},"error":{"code":"ok","message":"","log_id"}}. Each field needs its scope
// (user.info.basic: open_id, union_id, avatar_url*, display_name; user.info.profile: username,
// bio_description, profile_deep_link, is_verified; user.info.stats: counts); asking for a field
// whose scope the user did not grant is 401 scope_not_authorized.
import { bearerToken } from '../../shared/http.ts';
import { accessTokenInvalid, invalidParams, logId, scopeNotAuthorized } from '../errors.ts';
import type { TikTokRoute, TikTokUser, TikTokWorld } from '../state.ts';

/** How many public videos a user has (the Display API's list): video_count when no test set one. */
export type VideoCounter = (openId: string) => number;

const fieldsOf = (videoCount: VideoCounter): Record<string, { scope: string; value: (u: TikTokUser) => unknown }> => ({
  open_id: { scope: 'user.info.basic', value: (u) => u.openId },
  union_id: { scope: 'user.info.basic', value: (u) => u.unionId },
  avatar_url: { scope: 'user.info.basic', value: (u) => u.avatarUrl ?? '' },
  avatar_url_100: { scope: 'user.info.basic', value: (u) => u.avatarUrl ?? '' },
  avatar_large_url: { scope: 'user.info.basic', value: (u) => u.avatarUrl ?? '' },
  display_name: { scope: 'user.info.basic', value: (u) => u.displayName },
  username: { scope: 'user.info.profile', value: (u) => u.username },
  bio_description: { scope: 'user.info.profile', value: (u) => u.bioDescription },
  profile_deep_link: { scope: 'user.info.profile', value: (u) => `https://vm.tiktok.com/${u.username}` },
  is_verified: { scope: 'user.info.profile', value: (u) => u.isVerified },
  follower_count: { scope: 'user.info.stats', value: (u) => u.stats.follower_count ?? 0 },
  following_count: { scope: 'user.info.stats', value: (u) => u.stats.following_count ?? 0 },
  likes_count: { scope: 'user.info.stats', value: (u) => u.stats.likes_count ?? 0 },
  video_count: { scope: 'user.info.stats', value: (u) => u.stats.video_count ?? videoCount(u.openId) },
});

export function userRoutes(world: TikTokWorld, videoCount: VideoCounter): TikTokRoute[] {
  const FIELDS = fieldsOf(videoCount);
  return [
    {
      method: 'GET',
      url: '/v2/user/info/',
      handler: ({ query, headers }) => {
        const check = world.oauth.checkAccess(bearerToken(typeof headers.authorization === 'string' ? headers.authorization : undefined));
        if (!check.ok) return accessTokenInvalid();
        const user = world.users.get(check.userId);
        if (!user) return accessTokenInvalid();
        const fields = (query.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
        if (!fields.length) return invalidParams('fields is required.');
        const unknown = fields.find((f) => !FIELDS[f]);
        if (unknown) return invalidParams(`Invalid field: ${unknown}`);
        if (fields.some((f) => !check.scopes.includes(FIELDS[f]!.scope))) return scopeNotAuthorized();
        const out: Record<string, unknown> = {};
        for (const field of fields) out[field] = FIELDS[field]!.value(user);
        return { status: 200, body: { data: { user: out }, error: { code: 'ok', message: '', log_id: logId() } } };
      },
    },
  ];
}
