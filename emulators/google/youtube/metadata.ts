// videos.insert's metadata checks (the video resource a resumable session starts with) and the video
// resource YouTube answers. Limits: snippet.title required, ≤ 100 characters, no < or >; description
// ≤ 5,000 bytes, no < or >; tags ≤ 500 characters in all (a comma between tags counts, a tag with a
// space counts its quotes); categoryId one of YouTube's assignable categories.
import type { Reply } from '../../shared/http.ts';
import { isPlainObject } from '../../shared/http.ts';
import { youtubeError } from '../errors.ts';
import type { VideoResource, YoutubeVideo } from './state.ts';

/** Categories a video can be assigned to (videoCategories.list, region US, assignable: true). */
const ASSIGNABLE_CATEGORIES = new Set(['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29']);
const PRIVACY = new Set(['public', 'private', 'unlisted']);

/** The resource the session will create, or YouTube's 400 for its metadata. */
export function checkedResource(body: unknown): { ok: true; resource: VideoResource } | { ok: false; reply: Reply } {
  const bad = (reason: string, message: string) => ({ ok: false as const, reply: youtubeError(400, reason, message) });
  if (!isPlainObject(body)) return bad('invalidVideoMetadata', 'The request metadata is invalid.');
  const snippet = isPlainObject(body.snippet) ? body.snippet : {};
  const status = isPlainObject(body.status) ? body.status : {};
  const { title, description = '', tags = [], categoryId = '22' } = snippet as Record<string, unknown>;
  if (typeof title !== 'string' || !title.trim() || [...title].length > 100 || /[<>]/.test(title)) {
    return bad('invalidTitle', 'The request metadata specifies an invalid or empty video title.');
  }
  if (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) {
    return bad('invalidDescription', 'The request metadata specifies an invalid video description.');
  }
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string') || tagsLength(tags as string[]) > 500) {
    return bad('invalidTags', 'The request metadata specifies invalid video keywords.');
  }
  if (typeof categoryId !== 'string' || !ASSIGNABLE_CATEGORIES.has(categoryId)) {
    return bad('invalidCategoryId', 'The <code>snippet.categoryId</code> property specifies an invalid category ID.');
  }
  const privacyStatus = status.privacyStatus ?? 'public';
  if (typeof privacyStatus !== 'string' || !PRIVACY.has(privacyStatus)) return bad('invalidVideoMetadata', 'The request metadata is invalid.');
  for (const flag of ['selfDeclaredMadeForKids', 'containsSyntheticMedia', 'embeddable'] as const) {
    if (status[flag] !== undefined && typeof status[flag] !== 'boolean') return bad('invalidVideoMetadata', 'The request metadata is invalid.');
  }
  return {
    ok: true,
    resource: {
      snippet: { title, description, tags, categoryId },
      status: { ...status, privacyStatus },
    },
  };
}

/** What the tags count for YouTube's 500-character limit. */
function tagsLength(tags: string[]): number {
  const each = tags.reduce((sum, t) => sum + [...t].length + (t.includes(' ') ? 2 : 0), 0);
  return each + Math.max(0, tags.length - 1);
}

/** The video resource (part snippet, status, processingDetails, statistics as asked). */
export function videoResource(video: YoutubeVideo, channelTitle: string, parts: Set<string>, commentCount = 0): Record<string, unknown> {
  const thumbs = (id: string) => ({
    default: { url: `https://i.ytimg.example/vi/${id}/default.jpg`, width: 120, height: 90 },
    medium: { url: `https://i.ytimg.example/vi/${id}/mqdefault.jpg`, width: 320, height: 180 },
    high: { url: `https://i.ytimg.example/vi/${id}/hqdefault.jpg`, width: 480, height: 360 },
  });
  const kids = video.status.selfDeclaredMadeForKids === true;
  return {
    kind: 'youtube#video',
    etag: Buffer.from(`etag:${video.id}:${video.uploadStatus}`).toString('base64url').slice(0, 27),
    id: video.id,
    ...(parts.has('snippet')
      ? { snippet: { ...video.snippet, thumbnails: thumbs(video.id), channelTitle, liveBroadcastContent: 'none', localized: { title: video.snippet.title, description: video.snippet.description } } }
      : {}),
    ...(parts.has('status')
      ? {
          status: {
            uploadStatus: video.uploadStatus,
            ...(video.failureReason ? { failureReason: video.failureReason } : {}),
            ...(video.rejectionReason ? { rejectionReason: video.rejectionReason } : {}),
            privacyStatus: video.appliedPrivacy ?? video.status.privacyStatus,
            license: 'youtube',
            embeddable: video.status.embeddable ?? true,
            publicStatsViewable: true,
            madeForKids: kids,
            selfDeclaredMadeForKids: kids,
            ...(video.status.containsSyntheticMedia !== undefined ? { containsSyntheticMedia: video.status.containsSyntheticMedia } : {}),
          },
        }
      : {}),
    ...(parts.has('processingDetails') ? { processingDetails: { processingStatus: processingStatus(video) } } : {}),
    // Counts are strings (uint64 in JSON); dislikeCount is private since Dec 2021, favoriteCount always 0.
    ...(parts.has('statistics')
      ? { statistics: { viewCount: String(video.viewCount), likeCount: String(video.likeCount), favoriteCount: '0', commentCount: String(commentCount) } }
      : {}),
  };
}

function processingStatus(video: YoutubeVideo): string {
  if (video.uploadStatus === 'uploaded') return 'processing';
  return video.uploadStatus === 'processed' ? 'succeeded' : video.uploadStatus === 'deleted' ? 'terminated' : 'failed';
}
