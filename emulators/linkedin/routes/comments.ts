// Comments on a post (/rest/socialActions/{post urn}/comments): create (201, the comment URN
// urn:li:comment:(urn:li:activity:…,…) in x-restli-id, the comment in the body) and list.
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import { accessDenied, contentError, illegalArgument, notFound, schemaErrors } from '../errors.ts';
import type { LinkedInComment } from '../publishing.ts';
import { COMMENT_READING_ROLES, COMMENTING_ROLES, mayActAs, type LinkedInWorld } from '../world.ts';
import { readScopeFor, restGuard, urnParam, writeScopeFor, type Route } from './context.ts';

export function commentRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world, { restli2: true });
  const { publishing } = world;

  const create = rest('socialActions.comments.CREATE', [], (caller, { params, body }) => {
    const target = urnParam(params.urn);
    const post = publishing.findPost(target);
    if (!post) return notFound(`Post ${target} does not exist`);
    const read = jsonBody(body);
    if (!isPlainObject(read)) return schemaErrors(['/ :: the request body is not a JSON object']);
    const missing = ['actor', 'object', 'message'].filter((name) => read[name] === undefined);
    const message = read.message;
    if (isPlainObject(message) && typeof message.text !== 'string') missing.push('message/text');
    if (missing.length) return schemaErrors(missing.map((name) => `/${name} :: field is required but not found and has no default value`));
    const actor = String(read.actor);
    if (!caller.scopes.includes(writeScopeFor(actor)) || !mayActAs(world, caller.sub, actor, COMMENTING_ROLES)) return accessDenied('socialActions.comments.CREATE');
    if (read.object !== target) return illegalArgument(`object ${String(read.object)} does not match the path's ${target}`);
    const parent = read.parentComment === undefined ? undefined : String(read.parentComment);
    if (parent !== undefined && !publishing.comments.some((c) => c.urn === parent && c.postUrn === post.urn)) {
      return contentError(400, `Parent comment ${parent} does not exist on ${target}`, 'INVALID_PARENT_COMMENT', 'parentComment must be a comment on the same post', 'parentComment');
    }
    const id = publishing.nextId();
    const comment: LinkedInComment = {
      id,
      urn: `urn:li:comment:(${post.activityUrn},${id})`,
      postUrn: post.urn,
      object: target,
      actor,
      text: (message as { text: string }).text,
      ...(parent ? { parentComment: parent } : {}),
      createdAt: world.clock.now(),
    };
    publishing.comments.push(comment);
    return { status: 201, headers: { 'x-restli-id': comment.urn }, body: commentResource(comment) };
  });

  const list = rest('socialActions.comments.GET_ALL', [], (caller, { params, query }) => {
    const target = urnParam(params.urn);
    const post = publishing.findPost(target);
    if (!post) return notFound(`Post ${target} does not exist`);
    if (!caller.scopes.includes(readScopeFor(post.author)) || !mayActAs(world, caller.sub, post.author, COMMENT_READING_ROLES)) return accessDenied('socialActions.comments.GET_ALL');
    const start = Number(query.start ?? 0);
    const count = Number(query.count ?? 10);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) return illegalArgument('Invalid paging parameters start/count');
    const all = publishing.comments.filter((c) => c.postUrn === post.urn);
    return { status: 200, body: { paging: { start, count, total: all.length, links: [] }, elements: all.slice(start, start + count).map(commentResource) } };
  });

  return [
    { method: 'POST', url: '/rest/socialActions/:urn/comments', handler: create },
    { method: 'GET', url: '/rest/socialActions/:urn/comments', handler: list },
  ];
}

/** A comment as the Comments API answers it. */
function commentResource(c: LinkedInComment) {
  return {
    id: c.id,
    commentUrn: c.urn,
    actor: c.actor,
    object: c.object,
    message: { text: c.text, attributes: [] },
    created: { actor: c.actor, time: c.createdAt },
    lastModified: { actor: c.actor, time: c.createdAt },
    ...(c.parentComment ? { parentComment: c.parentComment } : {}),
  };
}
