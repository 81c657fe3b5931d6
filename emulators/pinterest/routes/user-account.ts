// The user's account (API v5): user_account/get (GET /v5/user_account), the profile and its counts.
import type { PinterestState, PinterestUser } from '../state.ts';
import { operation, type ApiContext, type Route } from './common.ts';

export function registerUserAccountRoutes(route: Route, ctx: ApiContext): void {
  operation(route, ctx, { method: 'GET', url: '/v5/user_account', template: '/user_account' }, (u) => {
    const user = ctx.state.users.get(u.id)!;
    return { status: 200, body: accountBody(ctx.state, user) };
  });
}

/** An account as the API answers it (Account): business_name only for a business account. */
function accountBody(state: PinterestState, user: PinterestUser): Record<string, unknown> {
  return {
    account_type: user.accountType,
    id: user.id,
    username: user.username,
    profile_image: user.profileImage,
    website_url: user.websiteUrl,
    about: user.about,
    ...(user.accountType === 'BUSINESS' ? { business_name: user.businessName } : {}),
    ...state.countsOf(user.id),
  };
}
