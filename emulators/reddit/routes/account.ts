// The account (scope identity): GET /api/v1/me on oauth.reddit.com.
import type { RedditUser } from '../state.ts';
import type { Routing } from './common.ts';

export function registerAccountRoutes({ route, api }: Routing): void {
  route('GET', '/api/v1/me', true, api('identity', (req, user) => {
    const raw = (req.query as Record<string, string | undefined>).raw_json === '1';
    return { status: 200, body: meJson(user, raw) };
  }));
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** /api/v1/me's answer: strings HTML-escaped unless raw_json=1, as Reddit does. */
function meJson(user: RedditUser, raw: boolean) {
  const text = (s: string) => (raw ? s : escapeHtml(s));
  const createdUtc = 1_600_000_000;
  return {
    is_employee: false,
    verified: true,
    has_verified_email: true,
    is_gold: false,
    is_mod: false,
    over_18: false,
    id: user.id,
    name: user.name,
    created: createdUtc,
    created_utc: createdUtc,
    link_karma: user.linkKarma,
    comment_karma: user.commentKarma,
    total_karma: user.linkKarma + user.commentKarma,
    awardee_karma: 0,
    awarder_karma: 0,
    icon_img: text(user.iconImg),
    snoovatar_img: text(user.snoovatarImg),
    subreddit: {
      default_set: true,
      display_name: `u_${user.name}`,
      display_name_prefixed: `u/${user.name}`,
      title: user.displayName,
      icon_img: text(user.iconImg),
      name: `t5_${user.id}`,
      public_description: '',
      subreddit_type: 'user',
      url: `/user/${user.name}/`,
      over_18: false,
      user_is_banned: false,
      subscribers: user.subscribers,
    },
  };
}
