// Approvals: the organization's requireApproval setting and each tenant's (admin keys change them),
// and the posts waiting for a decision (GET /v1/posts?status=pending_approval, every page), each with
// its text, accounts and time, approved or rejected here.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from './api.js';
import { Decision } from './decision.js';
import { AccountLabel, ErrorBox, formatDate, useAction, useLoad } from './ui.js';

const PAGE_SIZE = 100;

/** Every page of a /v1 list whose items are under `key`, with its total. */
async function loadAll(path, params, key) {
  const items = [];
  for (let total = Infinity; items.length < total;) {
    const page = await api(`${path}${query({ ...params, limit: PAGE_SIZE, offset: items.length })}`);
    total = page.pagination?.total ?? page.count;
    if (!page[key].length) break;
    items.push(...page[key]);
  }
  return items;
}

/** The posts waiting, oldest first (the first to decide). */
async function loadWaiting() {
  const waiting = await loadAll('/v1/posts', { status: 'pending_approval' }, 'posts');
  return waiting.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
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

/** The tenants the accounts carry, and those set before any account carried them, with each one's setting. */
async function loadTenants() {
  const [accounts, settings] = await Promise.all([loadAll('/v1/social-accounts', {}, 'data'), api('/v1/tenant-settings').then((r) => r.data)]);
  const byTenant = new Map(settings.map((s) => [s.tenantId, s.requireApproval]));
  for (const account of accounts) if (account.tenantId && !byTenant.has(account.tenantId)) byTenant.set(account.tenantId, false);
  return [...byTenant].sort(([a], [b]) => a.localeCompare(b)).map(([tenantId, requireApproval]) => ({ tenantId, requireApproval }));
}

function TenantApprovals() {
  const tenants = useLoad(loadTenants);
  const action = useAction();
  // As for the organization's box: the value asked for while the API answers, then the stored one.
  const [asked, setAsked] = useState({});
  const change = async (tenantId, requireApproval) => {
    setAsked({ [tenantId]: requireApproval });
    const changed = await action.run(() => api(`/v1/tenant-settings/${encodeURIComponent(tenantId)}`, { method: 'PATCH', body: { requireApproval } }));
    if (changed) await tenants.reload();
    setAsked({});
  };
  if (tenants.error) return html`<${ErrorBox} error=${tenants.error} />`;
  if (!tenants.data) return html`<p aria-busy="true">Loading the tenants…</p>`;
  if (!tenants.data.length) return null;
  return html`<div class="card setting tenant-approvals">
    <h2>Per tenant</h2>
    <p class="muted">A tenant that requires approval holds every post to one of its accounts, even with the setting above off.</p>
    <ul>${tenants.data.map(({ tenantId, requireApproval }) => html`<li>
      <label class="check"><input type="checkbox" name=${`tenant-${tenantId}`} checked=${asked[tenantId] ?? requireApproval} disabled=${action.running}
        onChange=${(e) => change(tenantId, e.target.checked)} /> Tenant <strong>${tenantId}</strong> requires approval</label>
    </li>`)}</ul>
    <${SettingError} error=${action.error} />
  </div>`;
}

export function ApprovalsPage() {
  const list = useLoad(loadWaiting);
  const [outcome, setOutcome] = useState(null);
  const decided = (post) => {
    const status = post.socialAccounts[0]?.status;
    setOutcome({ id: post.id, text: status === 'rejected' ? 'Rejected: it will not be published.' : `Approved: ${post.scheduledAt && new Date(post.scheduledAt) > new Date() ? `queued for ${formatDate(post.scheduledAt)}` : 'queued to publish now'}.` });
    list.reload();
  };
  const waiting = list.data;
  return html`<section>
    <div class="page-head"><h1>Approvals</h1><p class="actions"><button type="button" class="secondary" onClick=${list.reload} disabled=${list.loading}>Refresh</button></p></div>
    <${RequireApproval} />
    <${TenantApprovals} />
    <h2>Waiting for a decision</h2>
    ${outcome ? html`<p class="notice" role="status">${outcome.text} <a href=${`#/posts/${outcome.id}`}>See the post</a></p>` : null}
    <${ErrorBox} error=${list.error} />
    ${waiting?.length ? html`<p class="muted">${waiting.length === 1 ? '1 post waits' : `${waiting.length} posts wait`}, oldest first.</p>` : null}
    ${waiting && !waiting.length ? html`<p>No post is waiting for approval.</p>` : null}
    <ul class="cards" aria-busy=${list.loading}>${(waiting ?? []).map((post) => html`<${WaitingPost} key=${post.id} post=${post} onDecided=${decided} />`)}</ul>
  </section>`;
}
