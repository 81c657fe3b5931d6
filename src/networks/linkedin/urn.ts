// LinkedIn URNs as the versioned API wants them in paths and Rest.li 2.0 query values: fully
// URL-encoded, parentheses and commas too — a comment URN, urn:li:comment:(urn:li:activity:1,2),
// would otherwise be read as Rest.li syntax.
import { PublishError } from '../../core/errors.ts';

export const encodeUrn = (urn: string): string => encodeURIComponent(urn).replace(/\(/g, '%28').replace(/\)/g, '%29');

const COMMENT = /^urn:li:comment:\((urn:li:[A-Za-z]+:\d+),(\d+)\)$/;

/** A comment URN's parts: the activity (or post) it hangs on and the comment's own id. */
export function commentParts(urn: string): { on: string; id: string } | undefined {
  const match = COMMENT.exec(urn);
  return match ? { on: match[1]!, id: match[2]! } : undefined;
}

/** A post URN Crier stored (share or ugcPost); anything else is refused before a call. */
export function postUrn(urn: string): string {
  if (!/^urn:li:(share|ugcPost):\d+$/.test(urn)) throw new PublishError('permanent', `linkedin: "${urn}" is not a LinkedIn post URN (urn:li:share:… or urn:li:ugcPost:…)`, undefined, 'invalid');
  return urn;
}

export const isOrganization = (urn: string) => urn.startsWith('urn:li:organization:');
