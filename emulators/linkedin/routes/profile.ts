// The member and organization lookups Crier's LinkedIn connect uses: OpenID userinfo (/v2), the
// member's organization roles and an organization's profile (versioned /rest/).
import { accessDenied, illegalArgument, invalidToken, notFound } from '../errors.ts';
import type { LinkedInWorld } from '../state.ts';
import { authenticate, isReply, memberUrn, orgUrn, restGuard, type Route } from './context.ts';

export function profileRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world);

  return [
    {
      method: 'GET',
      url: '/v2/userinfo',
      handler: ({ headers }) => {
        const who = authenticate(world, headers);
        if (isReply(who)) return who;
        if (!who.scopes.includes('openid')) return accessDenied('userinfo.GET.NO_VERSION');
        const member = world.members.get(who.sub);
        if (!member) return invalidToken();
        const profile = who.scopes.includes('profile');
        const email = who.scopes.includes('email') && member.email;
        return {
          status: 200,
          body: {
            sub: member.sub,
            ...(profile ? { name: member.name, given_name: member.givenName, family_name: member.familyName, locale: member.locale, ...(member.picture ? { picture: member.picture } : {}) } : {}),
            ...(email ? { email: member.email, email_verified: member.emailVerified } : {}),
          },
        };
      },
    },
    {
      method: 'GET',
      url: '/rest/organizationAcls',
      handler: rest('organizationAcls.FINDER-roleAssignee', ['rw_organization_admin', 'r_organization_admin'], (who, { query }) => {
        if (query.q !== 'roleAssignee') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'}`);
        const start = Number(query.start ?? 0);
        const count = Number(query.count ?? 10);
        if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 0 || count > 100) return illegalArgument('Invalid paging parameters start/count');
        const all = world.roles.filter((r) => r.sub === who.sub && (!query.role || r.role === query.role) && (!query.state || r.state === query.state));
        const page = all.slice(start, start + count);
        return {
          status: 200,
          body: {
            paging: { start, count, links: start + count < all.length ? [{ rel: 'next', type: 'application/json', href: `/rest/organizationAcls?q=roleAssignee&start=${start + count}&count=${count}` }] : [], total: all.length },
            elements: page.map((r) => ({ roleAssignee: memberUrn(r.sub), state: r.state, role: r.role, organization: orgUrn(r.organizationId) })),
          },
        };
      }),
    },
    {
      method: 'GET',
      url: '/rest/organizations/:id',
      handler: rest('organizations.GET', ['rw_organization_admin', 'r_organization_admin'], (_who, { params }) => {
        if (!/^\d+$/.test(params.id ?? '')) return illegalArgument(`Invalid organization id: ${params.id}`);
        const org = world.organizations.get(Number(params.id));
        if (!org) return notFound(`Organization ${params.id} does not exist`);
        return {
          status: 200,
          body: {
            id: org.id,
            localizedName: org.localizedName,
            vanityName: org.vanityName,
            name: { localized: { en_US: org.localizedName }, preferredLocale: { country: 'US', language: 'en' } },
            ...(org.logoUrn ? { logoV2: { original: org.logoUrn, cropped: org.logoUrn, cropInfo: { x: 0, y: 0, width: 0, height: 0 } } } : {}),
            primaryOrganizationType: 'NONE',
            organizationType: 'PRIVATELY_HELD',
            versionTag: '1',
          },
        };
      }),
    },
  ];
}
