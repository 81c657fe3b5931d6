// Request validation, from vimeo/openapi api.yaml (pointer in description/README.md): the bodies of
// POST /me/videos (upload_video_alt1) and PATCH /videos/{id} (edit_video) against the schema's enums
// and types, answered with the 400 Vimeo lists for each; and the query string with every value read
// (the shared `firstValues` keeps the first). `fields`, Vimeo's JSON filter, is a comma-separated list (developer.vimeo.com/api/common-formats,
// "JSON filter"), so a repeated one is the union of its values, as `fields=uri,name`; any other
// parameter takes its first value (Vimeo does not document a repeated one: chosen).
import type { FastifyRequest } from 'fastify';
import { isPlainObject, type Reply } from '../shared/http.ts';
import { invalidParameters, invalidUploadType, legacyType } from './errors.ts';
import type { VimeoVideo } from './state.ts';

const LISTS = new Set(['fields']);

export function queryOf(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).map(String);
    out[name] = LISTS.has(name) ? values.join(',') : values[0];
  }
  return out;
}

export const VIEW_VALUES = ['anybody', 'contacts', 'disable', 'nobody', 'password', 'unlisted', 'users'];
export const EMBED_VALUES = ['private', 'public', 'whitelist'];
export const COMMENT_VALUES = ['anybody', 'contacts', 'nobody'];
const APPROACHES = ['post', 'pull', 'streaming', 'tus'];
/** Vimeo Basic members cannot choose these views (api.yaml, privacy.view). */
const PAID_VIEWS = ['disable', 'unlisted'];

/** Who asks: their plan decides which privacy views they may choose. */
export interface Asker {
  /** 'basic' (Vimeo Basic), or a paid plan ('plus', 'pro', ...). */
  account: string;
}

export const isReply = (value: object): value is Reply => 'status' in value;

/** What POST /me/videos asks for, or the 400 Vimeo answers. */
export function checkCreation(body: Record<string, unknown>, member: Asker):
  Reply | { name: string; description: string | null; view: string; embed: string; comments: string; size: number } {
  if (body.type !== undefined && body.upload === undefined) return legacyType();
  if (!isPlainObject(body.upload)) return invalidParameters('upload', 'is required');
  const approach = String(body.upload.approach ?? '');
  if (!APPROACHES.includes(approach)) return invalidUploadType(approach);
  // The emulator takes bytes by tus only; the other approaches are Vimeo's, not modelled.
  if (approach !== 'tus') return invalidUploadType(approach);
  const size = Number(body.upload.size);
  if (body.upload.size === undefined || body.upload.size === '' || !Number.isSafeInteger(size) || size <= 0) {
    return invalidParameters('upload.size', 'must be the size of the video in bytes, a whole number above 0');
  }
  if (body.name !== undefined && typeof body.name !== 'string') return invalidParameters('name', 'must be a string');
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') return invalidParameters('description', 'must be a string');
  const privacy = body.privacy === undefined ? {} : body.privacy;
  if (!isPlainObject(privacy)) return invalidParameters('privacy', 'must be an object');
  const view = privacy.view ?? 'anybody';
  const embed = privacy.embed ?? 'public';
  const comments = privacy.comments ?? 'anybody';
  if (typeof view !== 'string' || !VIEW_VALUES.includes(view)) return invalidParameters('privacy.view', `must be one of ${VIEW_VALUES.join(', ')}`);
  if (typeof embed !== 'string' || !EMBED_VALUES.includes(embed)) return invalidParameters('privacy.embed', `must be one of ${EMBED_VALUES.join(', ')}`);
  if (typeof comments !== 'string' || !COMMENT_VALUES.includes(comments)) return invalidParameters('privacy.comments', `must be one of ${COMMENT_VALUES.join(', ')}`);
  if (view === 'password' && (typeof body.password !== 'string' || !body.password)) return invalidParameters('password', 'is required when privacy.view is password');
  if (member.account === 'basic' && PAID_VIEWS.includes(view)) return invalidParameters('privacy.view', `cannot be ${view} for a Vimeo Basic member`);
  const name = typeof body.name === 'string' && body.name.trim() ? body.name : 'Untitled';
  const description = typeof body.description === 'string' ? body.description : null;
  return { name, description, view, embed, comments, size };
}

const LICENSES = ['by', 'by-nc', 'by-nc-nd', 'by-nc-sa', 'by-nd', 'by-sa', 'cc0'];

/**
 * What PATCH /videos/{id} changes, or the 400 Vimeo answers (api.yaml's edit_video body: name,
 * description, privacy.{view, embed, comments, download, add}, password, license...). Properties the
 * emulator does not keep (embed, license, locale, content_rating, review_page, spatial) are checked
 * where api.yaml gives them a type or an enum, then ignored.
 */
export function checkEdit(body: Record<string, unknown>, member: Asker, video: VimeoVideo):
  Reply | { name: string; description: string | null; privacy: VimeoVideo['privacy'] } {
  if (body.name !== undefined && (typeof body.name !== 'string' || !body.name.trim())) return invalidParameters('name', 'must be a non-empty string');
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') return invalidParameters('description', 'must be a string');
  if (body.license !== undefined && (typeof body.license !== 'string' || !LICENSES.includes(body.license))) return invalidParameters('license', `must be one of ${LICENSES.join(', ')}`);
  const privacy = body.privacy === undefined ? {} : body.privacy;
  if (!isPlainObject(privacy)) return invalidParameters('privacy', 'must be an object');
  const { view = video.privacy.view, embed = video.privacy.embed, comments = video.privacy.comments } = privacy;
  if (typeof view !== 'string' || !VIEW_VALUES.includes(view)) return invalidParameters('privacy.view', `must be one of ${VIEW_VALUES.join(', ')}`);
  if (typeof embed !== 'string' || !EMBED_VALUES.includes(embed)) return invalidParameters('privacy.embed', `must be one of ${EMBED_VALUES.join(', ')}`);
  if (typeof comments !== 'string' || !COMMENT_VALUES.includes(comments)) return invalidParameters('privacy.comments', `must be one of ${COMMENT_VALUES.join(', ')}`);
  for (const flag of ['download', 'add'] as const) {
    if (privacy[flag] !== undefined && typeof privacy[flag] !== 'boolean') return invalidParameters(`privacy.${flag}`, 'must be a boolean');
  }
  if (privacy.view === 'password' && (typeof body.password !== 'string' || !body.password)) return invalidParameters('password', 'is required when privacy.view is password');
  if (member.account === 'basic' && privacy.view !== undefined && PAID_VIEWS.includes(view)) return invalidParameters('privacy.view', `cannot be ${view} for a Vimeo Basic member`);
  return {
    name: typeof body.name === 'string' ? body.name : video.name,
    description: body.description === undefined ? video.description : (body.description as string | null),
    privacy: { view, embed, comments },
  };
}
