// The request checks of the Content Posting API, from the documented shapes (TikTok publishes no
// machine-readable description): the JSON body, `source_info` of a video init (FILE_UPLOAD with the
// Media Transfer Guide's chunk rules, or PULL_FROM_URL with a `video_url`), `post_info`, and a photo
// post's body. Each answers undefined when the request may go on, or TikTok's 400 `invalid_params`.
import { isPlainObject, jsonBody, type Reply } from '../shared/http.ts';
import { invalidParams } from './errors.ts';
import type { Publish } from './publishing.ts';

const MB = 1024 * 1024;
const TITLE_MAX = { video: 2200, photo: 90 };

/** The JSON body of a Content Posting call; TikTok takes application/json only. */
export function jsonObjectBody(headers: Record<string, string | string[] | undefined>, body: unknown): Record<string, unknown> | undefined {
  if (!/^application\/json\b/i.test(String(headers['content-type'] ?? ''))) return undefined;
  const parsed = jsonBody(body);
  return isPlainObject(parsed) ? parsed : undefined;
}

/**
 * A video init's `source_info` (direct-post and upload-video references: "You can choose from
 * FILE_UPLOAD and PULL_FROM_URL"; `video_size`, `chunk_size`, `total_chunk_count` required for
 * FILE_UPLOAD, `video_url` for PULL_FROM_URL).
 */
export function videoSourceProblem(source: Record<string, unknown>): Reply | undefined {
  if (source.source === 'FILE_UPLOAD') return chunkRuleBroken(source);
  if (source.source === 'PULL_FROM_URL') return videoUrlProblem(source.video_url);
  return invalidParams('source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
}

function videoUrlProblem(url: unknown): Reply | undefined {
  if (typeof url !== 'string' || !url) return invalidParams('source_info.video_url is required for PULL_FROM_URL.');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return invalidParams('source_info.video_url must be an HTTP(S) URL.');
  return undefined;
}

/** TikTok's chunk rules (Media Transfer Guide), checked at init. */
function chunkRuleBroken(source: Record<string, unknown>): Reply | undefined {
  const size = Number(source.video_size);
  const chunk = Number(source.chunk_size);
  const count = Number(source.total_chunk_count);
  if (![size, chunk, count].every((n) => Number.isInteger(n) && n > 0)) return invalidParams('video_size, chunk_size and total_chunk_count must be positive integers.');
  if (size < 5 * MB && (chunk !== size || count !== 1)) return invalidParams('A video under 5 MB must be uploaded whole: chunk_size = video_size, total_chunk_count = 1.');
  if (size >= 5 * MB && count > 1 && (chunk < 5 * MB || chunk > 64 * MB)) return invalidParams('chunk_size must be between 5 MB and 64 MB.');
  if (size > 64 * MB && count === 1) return invalidParams('A video over 64 MB must be uploaded in several chunks.');
  if (count !== Math.floor(size / chunk)) return invalidParams('total_chunk_count must be video_size / chunk_size rounded down.');
  if (count > 1000) return invalidParams('At most 1000 chunks.');
  if (size - (count - 1) * chunk > 128 * MB) return invalidParams('The last chunk may not exceed 128 MB.');
  return undefined;
}

export function postInfoProblem(postInfo: Record<string, unknown>, kind: 'video' | 'photo', mode: Publish['mode'] = 'DIRECT_POST'): Reply | undefined {
  const title = postInfo.title;
  if (title !== undefined && (typeof title !== 'string' || title.length > TITLE_MAX[kind])) return invalidParams(`post_info.title must be a string of at most ${TITLE_MAX[kind]} UTF-16 code units.`);
  const description = postInfo.description;
  if (description !== undefined && (typeof description !== 'string' || description.length > 4000)) return invalidParams('post_info.description must be a string of at most 4000 UTF-16 code units.');
  if (mode === 'DIRECT_POST' && typeof postInfo.privacy_level !== 'string') return invalidParams('post_info.privacy_level is required.');
  // The content sharing guidelines: branded content (a paid partnership) cannot be private.
  if (mode === 'DIRECT_POST' && postInfo.brand_content_toggle === true && postInfo.privacy_level === 'SELF_ONLY') {
    return invalidParams('Branded content visibility cannot be set to private: privacy_level SELF_ONLY with brand_content_toggle true.');
  }
  return undefined;
}

export function photoProblem(body: Record<string, unknown>, source: Record<string, unknown>, urls: string[]): Reply | undefined {
  if (body.media_type !== 'PHOTO') return invalidParams('media_type must be PHOTO.');
  if (body.post_mode !== 'DIRECT_POST' && body.post_mode !== 'MEDIA_UPLOAD') return invalidParams('post_mode must be DIRECT_POST or MEDIA_UPLOAD.');
  if (source.source !== 'PULL_FROM_URL') return invalidParams('source_info.source must be PULL_FROM_URL for photos.');
  if (urls.length < 1 || urls.length > 35) return invalidParams('source_info.photo_images must hold 1 to 35 URLs.');
  const cover = Number(source.photo_cover_index ?? 0);
  if (!Number.isInteger(cover) || cover < 0 || cover >= urls.length) return invalidParams('source_info.photo_cover_index is out of range.');
  return undefined;
}
