// Approvals: the organization's requireApproval setting (admin keys change it) and the posts waiting
// for a decision, each with its text, accounts and time, approved or rejected here.
// GET /v1/posts has no status filter: the page reads the newest posts (up to SCAN_PAGES pages of 100)
// and keeps those with a destination `pending_approval`, and says how many it looked through.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from './api.js';
import { Decision, waitsForApproval } from './decision.js';
import { AccountLabel, ErrorBox, formatDate, useAction, useLoad } from './ui.js';

const SCAN_PAGE_SIZE = 100;
const SCAN_PAGES = 5;

/** The waiting posts among the newest SCAN_PAGES × 100, oldest first (the first to decide). */
async function loadWaiting() {
  const waiting = [];
  let scanned = 0;
  let total = 0;
  for (let page = 0; page < SCAN_PAGES; page++) {
    const list = await api(`/v1/posts${query({ limit: SCAN_PAGE_SIZE, offset: scanned })}`);
    total = list.pagination.total;
    scanned += list.posts.length;
    waiting.push(...list.posts.filter(waitsForApproval));
    if (scanned >= total || !list.posts.length) break;
  }
  waiting.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { waiting, scanned, total };
}

/** The refusal of a key that may not change settings, said plainly before the API's own words. */
function SettingError({ error }) {
  if (!error) return null;
  if (error.code !== 'forbidden_role') return html`<${ErrorBox} error=${error} />`;
  return html`<div class="error" role="alert"><strong>Only an admin key can change this setting.</strong> ${error.message}.</div>`;
}

function RequireApproval() {
  const settings = useLoad(() => api('/v1/settings').then((r) => r.data));
  const action = useAction();
  // The box shows the value asked for while the API answers, then the stored one (unchanged when refused).
  const [asked, setAsked] = useState(null);
  const change = async (requireApproval) => {
    setAsked(requireApproval);
    const changed = await action.run(() => api('/v1/settings', { method: 'PATCH', body: { requireApproval } }));
    if (changed) await settings.reload();
    setAsked(null);
  };
  if (settings.error) return html`<${ErrorBox} error=${settings.error} />`;
  if (!settings.data) return html`<p aria-busy="true">Loading the settings…</p>`;
  const on = settings.data.requireApproval;
  return html`<div class="card setting">
    <label class="check"><input type="checkbox" name="requireApproval" checked=${asked ?? on} disabled=${action.running} onChange=${(e) => change(e.target.checked)} /> Require approval before publishing</label>
    <p class="muted">${asked !== null ? 'Saving…' : on
      ? 'On: every post created (not a draft) waits here until an approver or admin key approves or rejects it, whatever its time.'
      : 'Off: posts are queued as soon as they are created. Turning it off leaves the posts already waiting here.'}</p>
    <${SettingError} error=${action.error} />
  </div>`;
}

function WaitingPost({ post, onDecided }) {
  const text = post.containers[0]?.content || '(media only)';
  return html`<li class="card waiting-post">
    <a class="post-link" href=${`#/posts/${post.id}`}>${text}</a>
    ${post.containers.length > 1 ? html`<p class="muted">Thread of ${post.containers.length}; the replies:</p>
      <ol class="thread-rest">${post.containers.slice(1).map((c) => html`<li class="content">${c.content}</li>`)}</ol>` : null}
    <p class="muted">Created ${formatDate(post.createdAt)} · ${post.scheduledAt ? `to publish at ${formatDate(post.scheduledAt)}` : 'to publish as soon as approved'}</p>
    <ul class="destinations">${post.socialAccounts.map((d) => html`<li class="destination"><${AccountLabel} account=${d} /></li>`)}</ul>
    <${Decision} post=${post} label=${`“${text.slice(0, 40)}”`} onDecided=${onDecided} />
  </li>`;
}

export function ApprovalsPage() {
  const list = useLoad(loadWaiting);
  const [outcome, setOutcome] = useState(null);
  const decided = (post) => {
    const status = post.socialAccounts[0]?.status;
    setOutcome({ id: post.id, text: status === 'rejected' ? 'Rejected: it will not be published.' : `Approved: ${post.scheduledAt && new Date(post.scheduledAt) > new Date() ? `queued for ${formatDate(post.scheduledAt)}` : 'queued to publish now'}.` });
    list.reload();
  };
  const data = list.data;
  return html`<section>
    <div class="page-head"><h1>Approvals</h1><p class="actions"><button type="button" class="secondary" onClick=${list.reload} disabled=${list.loading}>Refresh</button></p></div>
    <${RequireApproval} />
    <h2>Waiting for a decision</h2>
    ${outcome ? html`<p class="notice" role="status">${outcome.text} <a href=${`#/posts/${outcome.id}`}>See the post</a></p>` : null}
    <${ErrorBox} error=${list.error} />
    ${data?.total ? html`<p class="muted">${data.scanned < data.total
      ? `Looked through the newest ${data.scanned} of ${data.total} posts (the API lists posts without a status filter); an older post waiting is on its own page.`
      : `Looked through all ${data.total} posts.`}</p>` : null}
    ${data && !data.waiting.length ? html`<p>No post is waiting for approval.</p>` : null}
    <ul class="cards" aria-busy=${list.loading}>${(data?.waiting ?? []).map((post) => html`<${WaitingPost} key=${post.id} post=${post} onDecided=${decided} />`)}</ul>
  </section>`;
}
