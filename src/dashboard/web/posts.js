// Posts: the list (the filters of GET /v1/posts, each destination's status at a glance) and a post's
// page (its destinations, their errors, each publishing attempt, its events' webhook deliveries,
// cancel and reschedule; once published, its figures, replies and deleting it from the networks:
// engagement.js).
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, query } from './api.js';
import { Decision, waitsForApproval } from './decision.js';
import { Engagement } from './engagement.js';
import { AccountLabel, ErrorBox, confirmed, networkName, Status, formatDate, useAction, useLoad } from './ui.js';
import { DeliveryLog } from './webhooks.js';

const PAGE_SIZE = 20;
const FILTERS = ['social_account_id', 'tenant_id', 'created_after', 'created_before', 'scheduled_after', 'scheduled_before'];
const UNSETTLED = new Set(['pending', 'publishing']);

/** The list answers each post with every account it goes to and each one's publishing state. */
async function loadPosts(filters, offset) {
  const list = await api(`/v1/posts${query({ ...filters, limit: PAGE_SIZE, offset })}`);
  return { posts: list.posts, total: list.pagination.total };
}

/** Every connected account, page after page (the list's pages hold at most 100). */
async function loadAccounts() {
  const accounts = [];
  for (let count = Infinity; accounts.length < count;) {
    const page = await api(`/v1/social-accounts${query({ limit: 100, offset: accounts.length })}`);
    if (!page.data.length) break;
    accounts.push(...page.data);
    count = page.count;
  }
  return accounts;
}

/**
 * The ids of sandbox accounts (what they publish is on an emulator, at no address of the real
 * network), from the accounts' load: undefined while loading; none known when it failed.
 */
function sandboxIdsOf(accounts) {
  if (accounts.error) return new Set();
  return accounts.data ? new Set(accounts.data.filter((a) => a.sandbox).map((a) => a.id)) : undefined;
}

/** datetime-local values are local time; the API takes ISO 8601. */
const isoOf = (local) => (local ? new Date(local).toISOString() : '');

/**
 * Where a published destination can be seen. A sandbox account's post exists only on its emulator:
 * the URL the emulator answered has the real network's form (x.com/…) and would lead nowhere, so it
 * is not offered as a link. `sandboxIds` undefined: not known yet, nothing is said.
 */
function PublishedAt({ destination, sandboxIds }) {
  if (!sandboxIds) return null;
  if (sandboxIds.has(destination.id)) {
    const id = destination.platformPostId ? ` as post ${destination.platformPostId}` : '';
    return html` <span class="muted sandbox-note">sandbox: not on the real network (published on the ${networkName(destination.network)} emulator${id})</span>`;
  }
  return destination.platformPostUrl ? html` <a href=${destination.platformPostUrl} target="_blank" rel="noopener">view on ${networkName(destination.network)}</a>` : null;
}

/** `approval`: the post's (its rejection's reason is said beside a rejected destination). */
export function Destination({ destination, scheduledAt, sandboxIds, approval }) {
  const { status } = destination;
  return html`<li class="destination">
    <${AccountLabel} account=${destination} /> <${Status} status=${status} />
    ${status === 'published' ? html`<${PublishedAt} destination=${destination} sandboxIds=${sandboxIds} />` : null}
    ${status === 'pending' ? html` <span class="muted">${scheduledAt ? `scheduled for ${formatDate(scheduledAt)}` : 'queued'}</span>` : null}
    ${status === 'pending_approval' ? html` <span class="muted">publishes only once approved${scheduledAt ? `, at ${formatDate(scheduledAt)}` : ''} (<a href="#/approvals">review</a>)</span>` : null}
    ${status === 'rejected' ? html` <span class="muted">an approver rejected the post${approval?.reason ? ` (“${approval.reason}”)` : ''}: it will not be published</span>` : null}
    ${destination.error ? html`<p class="reason"><span class="label">${status === 'unknown' ? 'Why unknown:' : 'Reason:'}</span> ${destination.error}</p>` : null}
    ${destination.editedContainers ? html`<div class="edited">
      <span class="muted">edited on the network ${formatDate(destination.editedAt)}; it shows since:</span>
      <ul>${destination.editedContainers.map((e) => html`<li><span class="label">part ${e.position + 1}:</span> ${e.content}</li>`)}</ul>
    </div>` : null}
  </li>`;
}

function Filters({ accounts, onApply }) {
  const [values, setValues] = useState(Object.fromEntries(FILTERS.map((name) => [name, ''])));
  const set = (name) => (event) => setValues({ ...values, [name]: event.target.value });
  const submit = (event) => {
    event.preventDefault();
    onApply({ ...values, created_after: isoOf(values.created_after), created_before: isoOf(values.created_before), scheduled_after: isoOf(values.scheduled_after), scheduled_before: isoOf(values.scheduled_before) });
  };
  const date = (name, label) => html`<label>${label}<input type="datetime-local" name=${name} value=${values[name]} onInput=${set(name)} /></label>`;
  return html`<form class="filters" onSubmit=${submit} aria-label="Filter posts">
    <label>Account
      <select name="social_account_id" value=${values.social_account_id} onChange=${set('social_account_id')}>
        <option value="">All accounts</option>
        ${accounts.map((a) => html`<option value=${a.id}>${networkName(a.network)} @${a.username.replace(/^@/, '')}</option>`)}
      </select>
    </label>
    <label>Tenant id<input name="tenant_id" value=${values.tenant_id} onInput=${set('tenant_id')} /></label>
    ${date('created_after', 'Created after')} ${date('created_before', 'Created before')}
    ${date('scheduled_after', 'Scheduled after')} ${date('scheduled_before', 'Scheduled before')}
    <button type="submit">Apply filters</button>
  </form>`;
}

export function PostsPage() {
  const [filters, setFilters] = useState({});
  const [offset, setOffset] = useState(0);
  const accounts = useLoad(loadAccounts);
  const sandboxIds = sandboxIdsOf(accounts);
  const posts = useLoad(() => loadPosts(filters, offset), [filters, offset]);
  const applyFilters = (next) => { setOffset(0); setFilters(next); };
  const total = posts.data?.total ?? 0;
  return html`<section>
    <div class="page-head"><h1>Posts</h1><p class="actions"><button type="button" class="secondary" onClick=${posts.reload} disabled=${posts.loading}>Refresh</button><a class="button" href="#/compose">New post</a></p></div>
    <${Filters} accounts=${accounts.data ?? []} onApply=${applyFilters} />
    <${ErrorBox} error=${posts.error} />
    ${posts.data && !posts.data.posts.length ? html`<p>No post matches. <a href="#/compose">Write one.</a></p>` : null}
    <ul class="cards" aria-busy=${posts.loading}>
      ${(posts.data?.posts ?? []).map((post) => html`<li class="card post-row">
        <a class="post-link" href=${`#/posts/${post.id}`}>${post.containers[0]?.content || '(media only)'}${post.containers.length > 1 ? html` <span class="muted">(thread of ${post.containers.length})</span>` : null}</a>
        <p class="muted">Created ${formatDate(post.createdAt)}${post.scheduledAt ? ` · scheduled for ${formatDate(post.scheduledAt)}` : ''}${post.isDraft ? ' · draft' : ''}</p>
        <ul class="destinations">${post.socialAccounts.map((d) => html`<${Destination} destination=${d} scheduledAt=${post.scheduledAt} sandboxIds=${sandboxIds} approval=${post.approval} />`)}</ul>
      </li>`)}
    </ul>
    ${total > PAGE_SIZE ? html`<nav class="pager" aria-label="Pages">
      <button type="button" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE_SIZE))}>Newer</button>
      <span>${offset + 1}–${Math.min(total, offset + PAGE_SIZE)} of ${total}</span>
      <button type="button" disabled=${offset + PAGE_SIZE >= total} onClick=${() => setOffset(offset + PAGE_SIZE)}>Older</button>
    </nav>` : null}
  </section>`;
}

function Reschedule({ post, onDone }) {
  const [when, setWhen] = useState('');
  const action = useAction();
  const submit = (event) => {
    event.preventDefault();
    action.run(() => api(`/v1/posts/${post.id}`, { method: 'PATCH', body: { scheduledAt: isoOf(when) } })).then((r) => r && onDone());
  };
  return html`<form class="inline" onSubmit=${submit}>
    <label>Publish at<input type="datetime-local" required value=${when} onInput=${(e) => setWhen(e.target.value)} /></label>
    <button type="submit" disabled=${action.running}>Reschedule</button>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

/** When the post was made, for when it is (or was) meant, when it first went out, and whether a destination waits on a reschedule. */
function postTimes(post) {
  const parts = [`Created ${formatDate(post.createdAt)}`];
  parts.push(post.scheduledAt ? `scheduled for ${formatDate(post.scheduledAt)}` : 'sent at once');
  if (post.isDraft) parts.push('draft');
  if (post.publishedAt) parts.push(`first published ${formatDate(post.publishedAt)}`);
  if (!post.scheduled && post.socialAccounts.some((d) => d.status === 'pending')) parts.push('not queued: reschedule it to publish');
  if (waitsForApproval(post)) parts.push('waiting for approval');
  if (post.socialAccounts.some((d) => d.status === 'rejected')) parts.push('rejected');
  return parts.join(' · ');
}

/** Every attempt to publish each destination: when, how it ended, why. */
function Attempts({ id, settled }) {
  const attempts = useLoad(() => api(`/v1/posts/${id}/attempts`).then((r) => r.data), [id, settled]);
  if (attempts.error) return html`<${ErrorBox} error=${attempts.error} />`;
  if (!attempts.data) return html`<p aria-busy="true">Loading…</p>`;
  if (!attempts.data.length) return html`<p class="muted">No attempt yet.</p>`;
  return html`<div class="table-scroll"><table class="attempts">
    <caption class="visually-hidden">Publishing attempts</caption>
    <thead><tr><th>Account</th><th>Attempt</th><th>Outcome</th><th>Started</th><th>Finished</th><th>Error</th></tr></thead>
    <tbody>${attempts.data.map((a) => html`<tr class="attempt">
      <td data-label="Account">${networkName(a.network)} @${a.username.replace(/^@/, '')}</td>
      <td data-label="Attempt">${a.attempt}</td>
      <td data-label="Outcome">${a.outcome ?? 'running'}</td>
      <td data-label="Started">${formatDate(a.startedAt)}</td>
      <td data-label="Finished">${formatDate(a.finishedAt)}</td>
      <td data-label="Error">${a.error ?? '—'}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

export function PostPage({ id }) {
  const post = useLoad(() => api(`/v1/posts/${id}`).then((r) => r.post), [id]);
  const accounts = useLoad(loadAccounts);
  const cancel = useAction();
  const [outcome, setOutcome] = useState(null);
  // Another post's page reuses this one: what was said about the previous post goes.
  useEffect(() => setOutcome(null), [id]);
  const unsettled = post.data?.socialAccounts.some((d) => UNSETTLED.has(d.status));
  // While a destination is on its way, the page follows it.
  useEffect(() => {
    if (!unsettled || post.data?.scheduledAt && new Date(post.data.scheduledAt) > new Date()) return undefined;
    const timer = setTimeout(post.reload, 1000);
    return () => clearTimeout(timer);
  }, [post.data]);
  if (post.error) return html`<section><h1>Post ${id}</h1><${ErrorBox} error=${post.error} /></section>`;
  if (!post.data) return html`<p aria-busy="true">Loading…</p>`;
  const p = post.data;
  const cancellable = p.socialAccounts.every((d) => d.status === 'pending' || d.status === 'pending_approval');
  // A post none of whose destinations went out can be queued again; a partly published one cannot.
  // One waiting for approval keeps waiting when moved (PATCH).
  const reschedulable = p.socialAccounts.every((d) => ['pending', 'pending_approval', 'failed', 'cancelled'].includes(d.status));
  // Published somewhere (or deleted from a network since): what happened after publishing.
  const wentOut = p.socialAccounts.some((d) => d.status === 'published' || d.status === 'deleted');
  const doCancel = () => cancel.run(() => api(`/v1/posts/${p.id}`, { method: 'DELETE' })).then((r) => { if (r) { setOutcome(r.message); post.reload(); } });
  return html`<section>
    <p><a href="#/posts">← Posts</a></p>
    <h1>Post ${p.id}</h1>
    <p class="muted">${postTimes(p)}</p>
    <h2>Content</h2>
    <ol class="containers">${p.containers.map((c) => html`<li><p class="content">${c.content}</p>${c.media.map((m) => html`<p class="muted">Attached: <a href=${m.url} target="_blank" rel="noopener">${m.filename}</a>${m.altText ? ` (alt text: ${m.altText})` : ''}</p>`)}</li>`)}</ol>
    <h2>Destinations</h2>
    <ul class="destinations">${p.socialAccounts.map((d) => html`<${Destination} destination=${d} scheduledAt=${p.scheduledAt} sandboxIds=${sandboxIdsOf(accounts)} approval=${p.approval} />`)}</ul>
    ${waitsForApproval(p) ? html`<h2>Approval</h2><${Decision} post=${p} label="this post" onDecided=${post.reload} />` : null}
    ${wentOut ? html`<${Engagement} key=${p.id} post=${p} onChange=${post.reload} />` : null}
    <h2>Publishing attempts</h2>
    <${Attempts} id=${p.id} settled=${!unsettled} />
    <h2>Webhook deliveries</h2>
    <${DeliveryLog} path=${`/v1/posts/${p.id}/deliveries`} showWebhook=${true} />
    ${outcome ? html`<p class="notice" role="status">${outcome}</p>` : null}
    ${unsettled ? html`<p class="muted" role="status">Following the destinations still publishing…</p>` : null}
    ${reschedulable ? html`<h2>Schedule</h2><${Reschedule} post=${p} onDone=${post.reload} />` : null}
    ${cancellable ? html`<p><button type="button" class="danger" disabled=${cancel.running} onClick=${confirmed('Cancel this post? It will not be published.', doCancel)}>Cancel this post</button></p>
      <${ErrorBox} error=${cancel.error} />` : null}
  </section>`;
}
