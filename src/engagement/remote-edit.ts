// PATCH /v1/posts/:id/remote: changes the text of a post on the networks it was published to, where
// the network's API allows it (capabilities.ts `edit`), and says per account what happened. Every
// destination to be edited is judged first with its network's judge, as publishing would judge the
// edited post: one refusal refuses the request, and nothing is changed anywhere. Crier's record keeps
// the post as it was asked, and beside each edited part what its network shows since
// (target_parts.edited_text), with the destination's latest edit time (targets.edited_at).
import { PublishError, RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import type { ContainerInput, PreflightPost } from '../core/post.ts';
import { callAsAccount, orgAccount, requireActive, type AccountCallDeps } from '../accounts/session.ts';
import { withTransaction, type Tx } from '../db/pool.ts';
import { getPost } from '../posts/read.ts';
import { loadDestinations, type Destination } from './destinations.ts';

/** What the request asks: the new text of each container by position (undefined: unchanged), and where. */
export interface RemoteEditInput {
  texts: readonly (string | undefined)[];
  /** The destinations' accounts to edit (encoded ids); absent: every published destination. */
  socialAccountIds?: readonly string[];
}

export interface RemoteEditResult {
  social_account: { id: string; network: string; username: string };
  platform_post_id: string | null;
  /**
   * edited: the network shows the new text; not_supported: its API cannot edit (do it in its app);
   * failed: see `error`; not_published: nothing of it is on the network; unchanged: none of the
   * edited containers was published there (a network that took the root alone).
   */
  outcome: 'edited' | 'not_supported' | 'failed' | 'not_published' | 'unchanged';
  error?: string;
}

/** A destination to edit, with the texts of its own parts and the edited post its network judges. */
interface PlannedEdit {
  destination: Destination;
  texts: (string | undefined)[];
}

export async function editOnNetworks(deps: AccountCallDeps, orgId: number, postId: string, input: RemoteEditInput): Promise<RemoteEditResult[]> {
  const post = await getPost(deps.db, orgId, postId);
  if (!post) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  const { destinations } = await loadDestinations(deps.db, orgId, postId);
  if (destinations.some((d) => d.status === 'pending' || d.status === 'publishing')) {
    throw new RequestError(409, 'Some destinations of this post are still to be published: wait until it finishes, or change the post itself (PATCH /v1/posts/:id) before it publishes', { code: 'post_not_finished' });
  }
  const issues: FieldIssue[] = [];
  if (input.texts.length > post.containers.length) {
    issues.push({ field: 'containers', message: `the post has ${post.containers.length} container(s): at most that many may be edited` });
  }
  const chosen = chooseDestinations(destinations, input.socialAccountIds, issues);
  if (issues.length) throw validationError(issues);
  const containers: ContainerInput[] = post.containers.map((c) => ({
    content: c.content,
    media: c.media.map((m) => ({ url: m.url, filename: m.filename, ...(m.altText ? { altText: m.altText } : {}) })),
  }));
  const planned = chosen.map((destination) => ({ destination, texts: input.texts.slice(0, destination.post.parts.length) }));
  for (const plan of planned) judgeEdit(deps, plan, containers, input.texts, issues);
  if (issues.length) throw validationError(issues, 'The edited post would be refused');
  // One destination after the other: each holds its row lock (and a connection) over its network call.
  const results: RemoteEditResult[] = [];
  for (const plan of planned) results.push(await editDestination(deps, orgId, plan));
  return results;
}

/** The destinations asked for (every one when no ids are given); an id of no destination is an issue. */
function chooseDestinations(destinations: Destination[], ids: readonly string[] | undefined, issues: FieldIssue[]): Destination[] {
  if (!ids) return destinations;
  const wanted = new Set<number>();
  ids.forEach((id, i) => {
    const accountId = decodeId(id);
    if (accountId === undefined || !destinations.some((d) => d.accountId === accountId)) {
      issues.push({ field: `socialAccountIds[${i}]`, message: 'is not an account this post was sent to' });
    } else wanted.add(accountId);
  });
  return destinations.filter((d) => wanted.has(d.accountId));
}

/**
 * The network's judgement of the post as it will read once edited: the new texts in place of the
 * containers' (a root edited replaces the block's own `content` too, which the network showed
 * instead of the shared text), the media and the rest of the block as published.
 */
function judgeEdit(deps: AccountCallDeps, plan: PlannedEdit, containers: ContainerInput[], texts: readonly (string | undefined)[], issues: FieldIssue[]): void {
  const { destination } = plan;
  if (!isEditable(deps, destination) || !plan.texts.some((t) => t !== undefined)) return;
  const edited = containers.map((c, i) => (texts[i] === undefined ? c : { ...c, content: texts[i]! }));
  const block = { ...destination.post.block };
  if (texts[0] !== undefined) delete block.content;
  const post: PreflightPost = { containers: edited, block: Object.keys(block).length ? block : undefined };
  try {
    deps.networks.get(destination.network).media.judge(post, 'publish');
  } catch (error) {
    if (!(error instanceof PublishError)) throw error;
    issues.push({ field: 'containers', message: `${deps.networks.get(destination.network).label} (@${destination.username}): ${error.message}` });
  }
}

const isEditable = (deps: AccountCallDeps, d: Destination) =>
  d.status === 'published' && d.post.parts.length > 0 && deps.networks.capabilities(d.network).edit !== undefined;

async function editDestination(deps: AccountCallDeps, orgId: number, { destination, texts }: PlannedEdit): Promise<RemoteEditResult> {
  const base = {
    social_account: { id: encodeId(destination.accountId), network: destination.network, username: destination.username },
    platform_post_id: destination.post.root?.platformId ?? null,
  };
  if (destination.status !== 'published' || !destination.post.parts.length) return { ...base, outcome: 'not_published' };
  const label = deps.networks.get(destination.network).label;
  const edit = deps.networks.capabilities(destination.network).edit;
  if (!edit) return { ...base, outcome: 'not_supported', error: `${label}'s API cannot edit a post: edit it in ${label} itself` };
  if (!texts.some((t) => t !== undefined)) {
    return { ...base, outcome: 'unchanged', error: `none of the edited containers was published to ${label} (it took ${destination.post.parts.length})` };
  }
  const account = requireActive(label, await orgAccount(deps, orgId, destination.accountId));
  // The destination's row stays locked from the call to its record: two edits (or an edit and a
  // remote delete) of it take turns, so the record says the text the network kept last.
  return withTransaction(deps.db, async (tx) => {
    const { rows } = await tx.query<{ status: string }>('SELECT status FROM targets WHERE id = $1 FOR UPDATE', [destination.targetId]);
    if (rows[0]?.status !== 'published') return { ...base, outcome: 'not_published' as const };
    try {
      await callAsAccount(deps, account, (session) => edit(session, destination.post, texts));
    } catch (error) {
      return { ...base, outcome: 'failed' as const, error: (error as Error).message };
    }
    await recordEdit(tx, destination.targetId, texts);
    return { ...base, outcome: 'edited' as const };
  });
}

/** What the network shows since: each edited part's text, and the destination's edit time. */
async function recordEdit(tx: Tx, targetId: number, texts: (string | undefined)[]): Promise<void> {
  const positions = texts.flatMap((t, i) => (t === undefined ? [] : [i]));
  await tx.query(
    `WITH parts AS (
       UPDATE target_parts p SET edited_text = e.text, edited_at = now()
         FROM unnest($2::int[], $3::text[]) AS e(position, text)
        WHERE p.target_id = $1 AND p.position = e.position)
     UPDATE targets SET edited_at = now() WHERE id = $1`,
    [targetId, positions, positions.map((i) => texts[i]!)],
  );
}
