// What POST /{ig-user-id}/media checks before it creates a container, as Meta's IG User Media
// reference states it: which media_type takes which URL, carousel children (2 to 10 finished-or-
// processing items of the same account), collaborators (3 at most, not on Stories or carousel items),
// user_tags and trial_params as JSON, alt_text only on images.
import type { Reply } from '../../shared/http.ts';
import { invalidParameter } from '../errors/instagram.ts';
import type { ContainerKind, IgContainer } from '../state/instagram.ts';

const KINDS = new Set(['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL']);

export function validateContainer(
  p: Record<string, string>, containerOf: (id: string) => IgContainer | undefined, igUserId: string,
): { kind: ContainerKind; children: string[] } | Reply {
  const declared = p.media_type?.toUpperCase();
  if (declared !== undefined && !KINDS.has(declared)) return invalidParameter(`The parameter media_type is invalid: ${p.media_type}`);
  const kind = (declared ?? 'IMAGE') as ContainerKind;
  const item = p.is_carousel_item === 'true';
  if (kind === 'CAROUSEL') return carousel(p, containerOf, igUserId);
  if (item && kind !== 'IMAGE' && kind !== 'VIDEO') return invalidParameter(`A carousel item is an image or media_type=VIDEO, not ${kind}.`);
  if (kind === 'VIDEO' && !item) return invalidParameter('The VIDEO media type is no longer supported for feed videos. Please use REELS instead.', 2207067);
  const url = kind === 'IMAGE' ? p.image_url : kind === 'STORIES' ? p.image_url ?? p.video_url : p.video_url;
  if (!url) return invalidParameter(`The parameter ${kind === 'IMAGE' ? 'image_url' : 'video_url'} is required.`);
  if (p.image_url && p.video_url) return invalidParameter('Only one of image_url and video_url can be given.');
  if (p.alt_text !== undefined && !p.image_url) return invalidParameter('alt_text is only supported on images.');
  if ((p.cover_url !== undefined || p.thumb_offset !== undefined || p.trial_params !== undefined || p.share_to_feed !== undefined) && kind !== 'REELS') {
    return invalidParameter('cover_url, thumb_offset, share_to_feed and trial_params are only supported on Reels.');
  }
  if (p.thumb_offset !== undefined && !/^\d+$/.test(p.thumb_offset)) return invalidParameter('The parameter thumb_offset must be an integer number of milliseconds.');
  const problem = collaborators(p, kind, item) ?? userTags(p) ?? trial(p);
  return problem ?? { kind, children: [] };
}

function carousel(p: Record<string, string>, containerOf: (id: string) => IgContainer | undefined, igUserId: string) {
  const raw = p.children ?? '';
  const children = raw.trim().startsWith('[') ? parseJson<unknown[]>(raw)?.map(String) ?? [] : raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (children.length < 2 || children.length > 10) return invalidParameter('The parameter children must list 2 to 10 carousel items.', 2207024);
  for (const id of children) {
    const child = containerOf(id);
    if (!child || child.igUserId !== igUserId || !child.carouselItem) return invalidParameter(`The carousel item ${id} is not a carousel item container of this account.`, 2207006);
  }
  if (p.image_url || p.video_url) return invalidParameter('A carousel container takes children, not image_url or video_url.');
  return collaborators(p, 'CAROUSEL', false) ?? { kind: 'CAROUSEL' as const, children };
}

function collaborators(p: Record<string, string>, kind: ContainerKind, item: boolean): Reply | undefined {
  if (p.collaborators === undefined) return undefined;
  const list = parseJson<unknown[]>(p.collaborators);
  if (!Array.isArray(list) || !list.every((u) => typeof u === 'string')) return invalidParameter('The parameter collaborators must be a JSON array of usernames.');
  if (list.length > 3) return invalidParameter('A media can have at most 3 collaborators.', 2207053);
  if (kind === 'STORIES' || item) return invalidParameter('Collaborators are not supported on Stories or carousel items.');
  return undefined;
}

function userTags(p: Record<string, string>): Reply | undefined {
  if (p.user_tags === undefined) return undefined;
  const tags = parseJson<unknown[]>(p.user_tags);
  const valid = Array.isArray(tags) && tags.every((t) => {
    const { username, x, y } = (t ?? {}) as Record<string, unknown>;
    return typeof username === 'string' && typeof x === 'number' && typeof y === 'number' && x >= 0 && x <= 1 && y >= 0 && y <= 1;
  });
  return valid ? undefined : invalidParameter('The parameter user_tags must be a JSON array of {username, x, y} with x and y between 0 and 1.');
}

function trial(p: Record<string, string>): Reply | undefined {
  if (p.trial_params === undefined) return undefined;
  const value = parseJson<{ graduation_strategy?: unknown }>(p.trial_params);
  if (value?.graduation_strategy === 'MANUAL' || value?.graduation_strategy === 'SS_PERFORMANCE') return undefined;
  return invalidParameter('The parameter trial_params must be {"graduation_strategy":"MANUAL"|"SS_PERFORMANCE"}.');
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
