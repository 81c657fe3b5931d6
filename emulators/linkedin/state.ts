// The state behind the LinkedIn emulator: apps (with the per-app "programmatic refresh tokens"
// switch LinkedIn grants only to approved partners), members, organizations and their role
// assignments. Tokens live in the shared OAuthServer.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { OAuthEmulatorApp, OAuthServer } from '../shared/oauth.ts';
import type { PublishingStore } from './publishing.ts';
import type { DailyQuotas } from './quota.ts';

/** Every scope the emulator knows; an app may only ask for those it was granted (`scopes`). */
export const LINKEDIN_SCOPES = [
  'openid', 'profile', 'email', 'w_member_social', 'r_member_social',
  'w_organization_social', 'r_organization_social', 'rw_organization_admin', 'r_organization_admin', 'r_member_postAnalytics',
] as const;

export interface LinkedInAppInput extends OAuthEmulatorApp {
  /** Programmatic refresh tokens (approved partners only). Default false, like most apps. */
  refreshTokens?: boolean;
  /** Scopes the app's products allow; default: all of LINKEDIN_SCOPES. */
  scopes?: string[];
}

export interface LinkedInApp extends OAuthEmulatorApp {
  refreshTokens: boolean;
  scopes: string[];
}

export interface LinkedInMember {
  /** The OpenID subject; the member URN is urn:li:person:{sub}. */
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string | null;
  emailVerified: boolean;
  picture: string | null;
  locale: { country: string; language: string };
}

export type AddMemberInput = Partial<LinkedInMember>;

export interface LinkedInOrganization {
  id: number;
  localizedName: string;
  vanityName: string;
  /** A digital media asset URN, as logoV2.original carries it; null: no logo. */
  logoUrn: string | null;
  /** Members following the page (networkSizes firstDegreeSize). */
  followers: number;
}

export type AddOrganizationInput = Partial<LinkedInOrganization> & {
  /** Members (sub) who administer it (role ADMINISTRATOR, state APPROVED). */
  admins?: string[];
};

export type OrgRole = 'ADMINISTRATOR' | 'DIRECT_SPONSORED_CONTENT_POSTER' | 'RECRUITING_POSTER' | 'LEAD_GEN_FORMS_MANAGER' | 'ANALYST' | 'CURATOR' | 'CONTENT_ADMINISTRATOR';
export type AclState = 'APPROVED' | 'REQUESTED' | 'REJECTED' | 'REVOKED';

export interface RoleAssignment {
  organizationId: number;
  sub: string;
  role: OrgRole;
  state: AclState;
}

export interface LinkedInWorld {
  clock: Clock;
  oauth: OAuthServer;
  apps: Map<string, LinkedInApp>;
  members: Map<string, LinkedInMember>;
  organizations: Map<number, LinkedInOrganization>;
  roles: RoleAssignment[];
  /** LinkedIn-Version values from this one (YYYYMM) up to the clock's month are served. */
  oldestVersion: string;
  publishing: PublishingStore;
  quotas: DailyQuotas;
  processing: ProcessingControls;
  /** The same author posting the same commentary within this window gets 422 DUPLICATE_POST. */
  duplicateWindowMs: number;
  /** The emulator's own origin, where upload URLs point (set once it listens). */
  origin: string;
}

/** How long assets take to process, and the one-shot outcomes tests arm. */
export interface ProcessingControls {
  imageMs: number;
  documentMs: number;
  videoMs: number;
  /** Durations set for particular videos (by URN) before or after their finalize. */
  perVideoMs: Map<string, number>;
  /** The next video finalized stays PROCESSING until releaseVideo(). */
  stickNextVideo: boolean;
  /** The next video finalized ends PROCESSING_FAILED with this reason. */
  failNextVideo: string | null;
}

/** Roles that may post, upload and read posts as an organization (Videos API: "company admin, DSC poster, or content admin"). */
export const POSTING_ROLES: readonly OrgRole[] = ['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER', 'CONTENT_ADMINISTRATOR'];
/** Roles that may comment as an organization (Comments API, w_organization_social). */
export const COMMENTING_ROLES: readonly OrgRole[] = ['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER', 'RECRUITING_POSTER'];
/**
 * Roles that may read an organization's share statistics: the Share Statistics page restricts
 * rw_organization_admin "to organizations in which the authenticated member has the following role:
 * ADMINISTRATOR" (README.md, "Sources by route"; the Follower Statistics page says the same).
 */
export const STATISTICS_ROLES: readonly OrgRole[] = ['ADMINISTRATOR'];
/** Roles that may read an organization's comments (Comments API, r_organization_social). */
export const COMMENT_READING_ROLES: readonly OrgRole[] = ['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER'];

/** Whether the member may act as `author`: their own person URN, or an organization they hold one of `roles` on (APPROVED). */
export function mayActAs(world: LinkedInWorld, sub: string, author: string, roles: readonly OrgRole[] = POSTING_ROLES): boolean {
  if (author === `urn:li:person:${sub}`) return true;
  const org = /^urn:li:organization:(\d+)$/.exec(author);
  if (!org) return false;
  return world.roles.some((r) => r.sub === sub && r.organizationId === Number(org[1]) && r.state === 'APPROVED' && roles.includes(r.role));
}

let counter = 0;

export function addMember(world: LinkedInWorld, input: AddMemberInput): LinkedInMember {
  counter += 1;
  const sub = input.sub ?? randomBytes(6).toString('base64url');
  const givenName = input.givenName ?? 'Member';
  const familyName = input.familyName ?? String(counter);
  const member: LinkedInMember = {
    sub,
    givenName,
    familyName,
    name: input.name ?? `${givenName} ${familyName}`,
    email: input.email === undefined ? `member${counter}@example.com` : input.email,
    emailVerified: input.emailVerified ?? true,
    picture: input.picture === undefined ? `https://media.licdn.com/dms/image/v2/${sub}/profile-displayphoto-shrink_100_100/0` : input.picture,
    locale: input.locale ?? { country: 'US', language: 'en' },
  };
  world.members.set(sub, member);
  return member;
}

export function addOrganization(world: LinkedInWorld, input: AddOrganizationInput): LinkedInOrganization {
  counter += 1;
  const id = input.id ?? 10_000_000 + counter;
  const org: LinkedInOrganization = {
    id,
    localizedName: input.localizedName ?? `Organization ${counter}`,
    vanityName: input.vanityName ?? `organization-${counter}`,
    logoUrn: input.logoUrn === undefined ? `urn:li:digitalmediaAsset:C4D0BAQ${id}` : input.logoUrn,
    followers: input.followers ?? 0,
  };
  world.organizations.set(id, org);
  for (const sub of input.admins ?? []) world.roles.push({ organizationId: id, sub, role: 'ADMINISTRATOR', state: 'APPROVED' });
  return org;
}
