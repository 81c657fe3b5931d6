// How the reddit emulator shows a submission's comment tree, as Reddit does: GET /comments/{id}
// nests answers in each comment's `replies` Listing ("" when none), spends `limit` comments over the
// whole tree, and stands the rest in for with `more` stubs: {count, children: [ids]} for siblings
// left out, and the "continue this thread" stub (id "_", no children) below `depth`.
// POST|GET /api/morechildren hands the left-out comments back, flat, each with its `depth` and
// `parent_id` for the caller to rebuild the tree.
import type { Comment, RedditState } from './state.ts';
import { commentThing, listing } from './things.ts';

/** Reddit's default subtree depth when `depth` is not given (the site shows about ten levels). */
export const DEFAULT_DEPTH = 10;

export interface TreeOptions {
  sort: string | undefined;
  /** How many levels are shown (1: top-level comments only). */
  depth: number;
}

/**
 * A parent's answers in the order `sort` asks, as reddit's SORT_OPERATOR_BY_NAME (r2/models/builder.py):
 * new newest first, top highest score first (ties oldest first), anything else oldest first (README:
 * confidence, controversial and qa are not reproduced).
 */
export function childrenOf(store: RedditState, parentName: string, sort: string | undefined): Comment[] {
  const kids = store.comments.filter((c) => c.parentId === parentName);
  if (sort === 'new') return kids.reverse();
  if (sort === 'top') return kids.sort((a, b) => b.score - a.score);
  return kids;
}

/** How many comments hang below `comment`, at any depth. */
function descendants(store: RedditState, comment: Comment): number {
  return childrenOf(store, comment.name, undefined).reduce((sum, c) => sum + 1 + descendants(store, c), 0);
}

/** The things of one level: comments while `budget` lasts, then one `more` stub for the rest. */
export function renderLevel(store: RedditState, parentName: string, level: number, opts: TreeOptions, budget: { left: number }): unknown[] {
  const kids = childrenOf(store, parentName, opts.sort);
  const out: unknown[] = [];
  for (const [index, comment] of kids.entries()) {
    if (budget.left <= 0) {
      out.push(moreStub(store, kids.slice(index), parentName, level));
      break;
    }
    budget.left -= 1;
    out.push(commentThing(comment, level, repliesOf(store, comment, level, opts, budget)));
  }
  return out;
}

function repliesOf(store: RedditState, comment: Comment, level: number, opts: TreeOptions, budget: { left: number }): unknown {
  const hasAnswers = store.comments.some((c) => c.parentId === comment.name);
  if (!hasAnswers) return '';
  if (level + 1 >= opts.depth) {
    // Below the depth asked: the "continue this thread" stub, which morechildren does not expand.
    return listing([{ kind: 'more', data: { count: 0, name: 't1__', id: '_', parent_id: comment.name, depth: level + 1, children: [] } }]);
  }
  const answers = renderLevel(store, comment.name, level + 1, opts, budget);
  return answers.length ? listing(answers) : '';
}

function moreStub(store: RedditState, rest: Comment[], parentName: string, level: number) {
  const count = rest.reduce((sum, c) => sum + 1 + descendants(store, c), 0);
  return { kind: 'more', data: { count, name: `t1_${rest[0]!.id}`, id: rest[0]!.id, parent_id: parentName, depth: level, children: rest.map((c) => c.id) } };
}

/** /api/morechildren's things: each comment asked for, then its answers, depth first, flat. */
export function moreChildren(store: RedditState, linkId: string, ids: string[], sort: string | undefined): unknown[] {
  const depthOf = (c: Comment): number => (c.parentId.startsWith('t3_') ? 0 : 1 + depthOf(store.comments.find((p) => p.name === c.parentId)!));
  const out: unknown[] = [];
  const walk = (comment: Comment) => {
    out.push(commentThing(comment, depthOf(comment)));
    for (const answer of childrenOf(store, comment.name, sort)) walk(answer);
  };
  for (const id of ids) {
    const comment = store.comments.find((c) => c.id === id && c.linkId === linkId);
    if (comment) walk(comment);
  }
  return out;
}
