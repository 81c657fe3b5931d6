// The objects Vimeo answers, in the shapes of vimeo/openapi api.yaml's video, comment and user
// schemas, built from the state; and Vimeo's field filtering (`?fields=`).
import { legacyStatus, uploadStatus, type VideoStore, type VimeoComment, type VimeoUser, type VimeoVideo } from './state.ts';

const PICTURE_WIDTHS = [30, 72, 75, 100, 144, 216, 288, 300, 360];

export function videoLink(video: VimeoVideo): string {
  return video.privacy.view === 'unlisted' ? `https://vimeo.com/${video.id}/${video.unlistedHash}` : `https://vimeo.com/${video.id}`;
}

/**
 * The video object (the fields Crier uses, and enough others to look real). Another member reading it
 * (`forOwner` false) gets no `upload_link`: the tus link is the credential to write the video's bytes.
 */
export function videoJson(video: VimeoVideo, origin: string, user: Record<string, unknown> | null, forOwner = true): Record<string, unknown> {
  return {
    uri: `/videos/${video.id}`,
    name: video.name,
    description: video.description,
    type: 'video',
    link: videoLink(video),
    duration: 0,
    created_time: video.createdTime,
    privacy: { view: video.privacy.view, embed: video.privacy.embed, comments: video.privacy.comments, download: false, add: true },
    status: legacyStatus(video),
    upload: {
      status: uploadStatus(video),
      approach: 'tus',
      upload_link: forOwner ? `${origin}/tus/files/${video.uploadToken}` : null,
      size: video.size,
      form: null,
      complete_uri: null,
      link: null,
      redirect_url: null,
    },
    transcode: video.transcode ? { status: video.transcode } : null,
    user,
    stats: { plays: video.plays },
    metadata: {
      connections: {
        comments: { uri: `/videos/${video.id}/comments`, options: ['GET', 'POST'], total: video.comments.length },
        likes: { uri: `/videos/${video.id}/likes`, options: ['GET'], total: video.likes },
      },
    },
    resource_key: `video-${video.id}`,
  };
}

/** A comment; `replies` is how many answer it (0 for a reply). */
export function commentJson(comment: VimeoComment, user: Record<string, unknown> | null, replies: number): Record<string, unknown> {
  return {
    uri: `/videos/${comment.videoId}/comments/${comment.id}`,
    type: 'video',
    text: comment.text,
    created_on: comment.createdOn,
    user,
    metadata: { connections: { replies: { uri: `/videos/${comment.videoId}/comments/${comment.id}/replies`, options: ['GET', 'POST'], total: replies } } },
    resource_key: `comment-${comment.id}`,
  };
}

/**
 * `?fields=uri,upload.status`: only the named fields, dotted paths reaching into objects (Vimeo's
 * field filtering); without the parameter, everything.
 */
export function pickFields(value: Record<string, unknown>, fields: string | undefined): Record<string, unknown> {
  if (!fields) return value;
  const out: Record<string, unknown> = {};
  for (const path of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    let keys = path.split('.');
    let from: unknown = value;
    for (const [i, key] of keys.entries()) {
      from = from && typeof from === 'object' ? (from as Record<string, unknown>)[key] : undefined;
      // A null object on the way (transcode: null before the upload ends) is answered as that null.
      if (from === null) keys = keys.slice(0, i + 1);
      if (from === null || from === undefined) break;
    }
    if (from === undefined) continue;
    let into = out;
    keys.slice(0, -1).forEach((key) => {
      if (typeof into[key] !== 'object' || into[key] === null) into[key] = {};
      into = into[key] as Record<string, unknown>;
    });
    into[keys.at(-1)!] = from;
  }
  return out;
}

/** The user object (api.yaml's user schema); the member's own (`own`) carries `upload_quota`. */
export function userJson(user: VimeoUser, store: VideoStore, own = false): Record<string, unknown> {
  return {
    uri: `/users/${user.id}`,
    name: user.name,
    link: `https://vimeo.com/${user.username}`,
    location: '',
    bio: null,
    short_bio: null,
    created_time: '2024-01-01T00:00:00+00:00',
    account: user.account,
    pictures: picturesJson(user),
    websites: [],
    metadata: {
      connections: {
        videos: { uri: `/users/${user.id}/videos`, options: ['GET'], total: [...store.videos.values()].filter((v) => v.ownerId === user.id).length },
        followers: { uri: `/users/${user.id}/followers`, options: ['GET'], total: user.followers },
        following: { uri: `/users/${user.id}/following`, options: ['GET'], total: user.following },
        likes: { uri: `/users/${user.id}/likes`, options: ['GET'], total: 0 },
      },
    },
    resource_key: `user-${user.id}`,
    ...(own ? { upload_quota: uploadQuotaJson(store, user.id) } : {}),
  };
}

/** A custom portrait in every size, or Vimeo's default pictures. */
function picturesJson(user: VimeoUser): Record<string, unknown> {
  if (!user.pictureBase) {
    return {
      uri: null,
      active: false,
      type: 'default',
      base_link: 'https://i.vimeocdn.com/portrait/defaults-blue',
      sizes: PICTURE_WIDTHS.map((w) => ({ width: w, height: w, link: `https://i.vimeocdn.com/portrait/defaults-blue_${w}x${w}.png` })),
      resource_key: 'default-picture',
    };
  }
  return {
    uri: `/users/${user.id}/pictures/1`,
    active: true,
    type: 'custom',
    base_link: user.pictureBase,
    sizes: PICTURE_WIDTHS.map((w) => ({ width: w, height: w, link: `${user.pictureBase}_${w}x${w}?r=pad` })),
    resource_key: 'picture-resource',
  };
}

/** upload_quota as api.yaml describes it: the space left (`space`), and the periodic and lifetime figures. */
function uploadQuotaJson(store: VideoStore, userId: string): Record<string, unknown> {
  const { free, max, resetDate } = store.quotaOf(userId);
  const figures = { free: Math.max(0, free), max, used: max - Math.max(0, free) };
  return resetDate
    ? { space: { ...figures, showing: 'periodic' }, periodic: { ...figures, reset_date: resetDate }, lifetime: { free: null, max: null, used: null } }
    : { space: { ...figures, showing: 'lifetime' }, periodic: { free: null, max: null, used: null, reset_date: null }, lifetime: figures };
}
