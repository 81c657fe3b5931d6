// Social actions on a post (/rest/socialActions/{urn}…): comments on a post or on a comment (one
// tier: a comment's answers are listed and created with the comment's URN as the path's target),
// one comment by id, and the post's summary (likes, comments). Create answers 201, the comment URN
// urn:li:comment:(urn:li:activity:…,…) in x-restli-id and the comment in the body. URNs in paths
// must be fully URL-encoded under Rest.li 2.0, parentheses and commas too (2.0 reads a raw "(" as key
// syntax); under 1.0 (no X-Restli-Protocol-Version) the key is a plain string and raw ones are read as sent.
import { isPlainObject, jsonBody, type Reply } from '../../shared/http.ts';
import { accessDenied, contentError, illegalArgument, notFound, schemaErrors } from '../errors.ts';
import type { LinkedInComment, LinkedInPost } from '../publishing.ts';
import { COMMENT_READING_ROLES, COMMENTING_ROLES, mayActAs, type LinkedInWorld } from '../state.ts';
import { readScopeFor, restGuard, urnParam, writeScopeFor, type Caller, type RestInput, type Route } from './context.ts';

/** What a path's target is: a post (top-level comments), or a comment of a post (its answers). */
interface Target {
  post: LinkedInPost;
  comment?: LinkedInComment;
}

export function commentRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world);
  const { publishing } = world;

  /** The path's target, or LinkedIn's answer: 400 for an unencoded URN under 2.0, 404 for one that does not exist. */
  const targetOf = ({ params, rawUrl, protocol }: RestInput): Target | Reply => {
    const rawTarget = rawUrl.split('?')[0]!.split('/')[3] ?? '';
    if (protocol === 2 && /[(),]/.test(rawTarget)) return illegalArgument(`Invalid key ${rawTarget}: reserved characters in a URN must be URL-encoded`);
    const urn = urnParam(params.urn);
    if (urn.startsWith('urn:li:comment:')) {
      const found = publishing.findComment(urn);
      return found ?? notFound(`Comment ${urn} does not exist`);
    }
    const post = publishing.findPost(urn);
    return post ? { post } : notFound(`Post ${urn} does not exist`);
  };
  const isTarget = (value: Target | Reply): value is Target => 'post' in value;

  /** Reading a post's social actions: the member's own post (r_member_social), or an organization's with a reading role. */
  const mayRead = (caller: Caller, post: LinkedInPost) =>
    caller.scopes.includes(readScopeFor(post.author)) && mayActAs(world, caller.sub, post.author, COMMENT_READING_ROLES);

  const create = rest('socialActions.comments.CREATE', [], (caller, input) => {
    const target = targetOf(input);
    if (!isTarget(target)) return target;
    const read = jsonBody(input.body);
    if (!isPlainObject(read)) return schemaErrors(['/ :: the request body is not a JSON object']);
    const missing = ['actor', 'object', 'message'].filter((name) => read[name] === undefined);
    const message = read.message;
    if (isPlainObject(message) && typeof message.text !== 'string') missing.push('message/text');
    if (missing.length) return schemaErrors(missing.map((name) => `/${name} :: field is required but not found and has no default value`));
    const actor = String(read.actor);
    if (!caller.scopes.includes(writeScopeFor(actor)) || !mayActAs(world, caller.sub, actor, COMMENTING_ROLES)) return accessDenied('socialActions.comments.CREATE');
    const { post, comment: parentOfPath } = target;
    if (read.object !== post.urn && read.object !== post.activityUrn) return illegalArgument(`object ${String(read.object)} is not the post ${post.urn} the comment goes on`);
    const parent = read.parentComment === undefined ? undefined : String(read.parentComment);
    if (parentOfPath && parent !== parentOfPath.urn) return illegalArgument(`parentComment must be the path's comment ${parentOfPath.urn}`);
    const parentComment = parent === undefined ? undefined : publishing.comments.find((c) => c.urn === parent && c.postUrn === post.urn);
    if (parent !== undefined && !parentComment) {
      return contentError(400, `Parent comment ${parent} does not exist on ${post.urn}`, 'INVALID_PARENT_COMMENT', 'parentComment must be a comment on the same post', 'parentComment');
    }
    if (parentComment?.parentComment) {
      return contentError(400, `Comment ${parent} is itself a reply: comments nest one level`, 'INVALID_PARENT_COMMENT', 'parentComment must be a top-level comment', 'parentComment');
    }
    const comment = addComment(world, post, { actor, text: (message as { text: string }).text, object: String(read.object), parentComment: parent });
    return { status: 201, headers: { 'x-restli-id': comment.urn }, body: commentResource(world, comment) };
  });

  const list = rest('socialActions.comments.GET_ALL', [], (caller, input) => {
    const target = targetOf(input);
    if (!isTarget(target)) return target;
    if (!mayRead(caller, target.post)) return accessDenied('socialActions.comments.GET_ALL');
    const start = Number(input.query.start ?? 0);
    const count = Number(input.query.count ?? 10);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) return illegalArgument('Invalid paging parameters start/count');
    // In creation order (the order LinkedIn's docs do not state; see README.md).
    const all = publishing.commentsOn(target);
    return { status: 200, body: { paging: { start, count, total: all.length, links: [] }, elements: all.slice(start, start + count).map((c) => commentResource(world, c)) } };
  });

  const getOne = rest('socialActions.comments.GET', [], (caller, input) => {
    const target = targetOf(input);
    if (!isTarget(target)) return target;
    if (!mayRead(caller, target.post)) return accessDenied('socialActions.comments.GET');
    const comment = publishing.comments.find((c) => c.postUrn === target.post.urn && c.id === input.params.id);
    if (!comment) return notFound(`Comment ${input.params.id} does not exist on ${target.post.urn}`);
    return { status: 200, body: commentResource(world, comment) };
  });

  const summary = rest('socialActions.GET', [], (caller, input) => {
    const target = targetOf(input);
    if (!isTarget(target)) return target;
    if (!mayRead(caller, target.post)) return accessDenied('socialActions.GET');
    const { post } = target;
    return {
      status: 200,
      body: {
        target: urnParam(input.params.urn),
        likesSummary: { totalLikes: post.stats.likes, aggregatedTotalLikes: post.stats.likes, likedByCurrentUser: false, selectedLikes: [] },
        commentsSummary: commentsSummary(world, { post }),
      },
    };
  });

  return [
    { method: 'POST', url: '/rest/socialActions/:urn/comments', handler: create },
    { method: 'GET', url: '/rest/socialActions/:urn/comments', handler: list },
    { method: 'GET', url: '/rest/socialActions/:urn/comments/:id', handler: getOne },
    { method: 'GET', url: '/rest/socialActions/:urn', handler: summary },
  ];
}

/** Stores a comment on `post` (by the API, or a test's other member or organization). */
export function addComment(world: LinkedInWorld, post: LinkedInPost, input: { actor: string; text: string; object?: string; parentComment?: string; likes?: number }): LinkedInComment {
  const id = world.publishing.nextId();
  const comment: LinkedInComment = {
    id,
    urn: `urn:li:comment:(${post.activityUrn},${id})`,
    postUrn: post.urn,
    object: input.object ?? post.urn,
    actor: input.actor,
    text: input.text,
    ...(input.parentComment ? { parentComment: input.parentComment } : {}),
    createdAt: world.clock.now(),
    likes: input.likes ?? 0,
  };
  world.publishing.comments.push(comment);
  return comment;
}

function commentsSummary(world: LinkedInWorld, target: Target) {
  const first = world.publishing.commentsOn(target);
  const all = world.publishing.comments.filter((c) => c.postUrn === target.post.urn && (!target.comment || c.parentComment === target.comment.urn));
  return { totalFirstLevelComments: first.length, aggregatedTotalComments: all.length, selectedComments: [] };
}

/** A comment as the Comments API answers it. */
function commentResource(world: LinkedInWorld, c: LinkedInComment) {
  const post = world.publishing.posts.find((p) => p.urn === c.postUrn)!;
  return {
    id: c.id,
    commentUrn: c.urn,
    actor: c.actor,
    object: c.object,
    message: { text: c.text, attributes: [] },
    created: { actor: c.actor, time: c.createdAt },
    lastModified: { actor: c.actor, time: c.createdAt },
    ...(c.parentComment ? { parentComment: c.parentComment } : {}),
    likesSummary: { totalLikes: c.likes, aggregatedTotalLikes: c.likes, likedByCurrentUser: false, selectedLikes: [] },
    // Answers of a top-level comment; an answer has none (comments nest one level).
    commentsSummary: commentsSummary(world, { post, comment: c }),
  };
}
