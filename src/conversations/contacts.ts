// The spec's `sender` / `author` from a network's contact lookup: the four figures, each null when the
// network did not give it (null means unknown, never false); null as a whole when the lookup failed.
import type { ContactLookup } from '../networks/capabilities.ts';
import type { ContactProfile } from '../webhooks/events.ts';

export function contactProfile(lookup: ContactLookup | null): ContactProfile | null {
  if (!lookup) return null;
  return {
    isFollower: lookup.isFollower ?? null,
    isFollowedByAccount: lookup.isFollowedByAccount ?? null,
    followerCount: lookup.followerCount ?? null,
    isVerified: lookup.isVerified ?? null,
  };
}
