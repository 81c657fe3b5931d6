// How Reddit shows its things in answers: a link (t3) and a comment (t1) as listings carry them, and
// the Listing envelope itself.
import type { Comment, RedditState, Submission } from './state.ts';

/** A submission as Reddit's listings show it (kind t3); `numComments`: its comments not deleted. */
export function linkThing(s: Submission, numComments = 0) {
  return {
    kind: 't3',
    data: {
      id: s.id, name: s.name, subreddit: s.subreddit, subreddit_name_prefixed: s.subreddit.startsWith('u_') ? `u/${s.subreddit.slice(2)}` : `r/${s.subreddit}`,
      author: s.deleted ? '[deleted]' : s.author, ...(s.deleted ? {} : { author_fullname: s.authorFullname }),
      title: s.title, selftext: s.deleted ? '[deleted]' : s.selftext, is_self: s.kind === 'self', url: s.url, permalink: s.permalink,
      link_flair_template_id: s.flairId ?? null, link_flair_text: s.flairText ?? null, over_18: s.nsfw, spoiler: s.spoiler,
      send_replies: s.sendReplies, created_utc: Math.floor(s.createdUtc), removed_by_category: s.deleted ? 'deleted' : null, is_robot_indexable: !s.deleted,
      score: s.score, ups: s.score, upvote_ratio: s.upvoteRatio, num_comments: numComments, view_count: s.viewCount, num_crossposts: s.numCrossposts,
    },
  };
}

/** A comment as Reddit's listings show it (kind t1): `replies` is "" or a Listing of its answers. */
export function commentThing(c: Comment, depth = 0, replies: unknown = '') {
  return {
    kind: 't1',
    data: {
      id: c.id, name: c.name, author: c.deleted ? '[deleted]' : c.author, ...(c.deleted ? {} : { author_fullname: c.authorFullname }),
      body: c.deleted ? '[deleted]' : c.body, parent_id: c.parentId, link_id: c.linkId,
      permalink: c.permalink, created_utc: Math.floor(c.createdUtc), score: c.score, ups: c.score, depth, replies,
    },
  };
}

export function listing(children: unknown[], after: string | null = null) {
  return { kind: 'Listing', data: { after, before: null, dist: children.length, children } };
}

/** A link with its `num_comments`: its comments not deleted. */
export function linkWithComments(state: RedditState, s: Submission) {
  return linkThing(s, state.comments.filter((c) => c.linkId === s.name && !c.deleted).length);
}
