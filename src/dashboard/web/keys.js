// API keys and usage: create (the key shown once, with a copy button) with a role and an optional fixed quota,
// revoke; the current rate limit of this key; processMedia usage and the networks' shared quotas.
// An MCP client's OAuth grant is listed as a key too ("MCP: <client>"): revoking it ends its access.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, rateLimit } from './api.js';
import { ErrorBox, confirmed, FieldErrors, ShownOnce, formatDate, useAction, useLoad } from './ui.js';

/** What each role may do (src/orgs/roles.ts), as the form offers it. */
const ROLES = {
  admin: 'everything: keys, webhooks, settings and accounts included',
  editor: 'writes posts, media and queues; reads the rest; cannot approve',
  approver: 'approves or rejects posts waiting for approval; reads the rest',
};

function CreateKey({ onCreated }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState('admin');
  const [quota, setQuota] = useState('');
  const action = useAction();
  const submit = (e) => {
    e.preventDefault();
    const body = { name, role, ...(quota ? { fixedQuota: Number(quota) } : {}) };
    action.run(() => api('/v1/api-keys', { method: 'POST', body })).then((r) => { if (r) { setName(''); setQuota(''); setRole('admin'); onCreated(r.data); } });
  };
  return html`<form class="card inline" onSubmit=${submit} aria-label="Create an API key">
    <label>Name<input name="key-name" required value=${name} onInput=${(e) => setName(e.target.value)} /></label>
    <${FieldErrors} details=${action.error?.details} field="name" />
    <label>Role<select name="role" value=${role} aria-describedby="role-meaning" onChange=${(e) => setRole(e.target.value)}>${Object.keys(ROLES).map((value) => html`<option value=${value}>${value}</option>`)}</select>
      <span class="hint" id="role-meaning">${ROLES[role]}</span></label>
    <label>Fixed quota (requests in total; empty: limited per window)<input name="fixedQuota" type="number" min="1" value=${quota} onInput=${(e) => setQuota(e.target.value)} /></label>
    <button type="submit" disabled=${action.running}>Create a key</button>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

/** The prefix of an MCP client's OAuth grant (src/orgs/api-keys.ts): no key exists to recognise, the row is the grant. */
const GRANT_PREFIX = 'oauth-grant';

function KeyRow({ apiKey, onRevoked }) {
  const action = useAction();
  const revoke = () => action.run(() => api(`/v1/api-keys/${apiKey.id}`, { method: 'DELETE' })).then((r) => r && onRevoked());
  return html`<tr class="api-key">
    <td data-label="Name">${apiKey.name}</td>
    <td data-label="Prefix">${apiKey.prefix === GRANT_PREFIX ? html`<span class="muted">MCP client (OAuth)</span>` : html`<code>${apiKey.prefix}…</code>`}</td>
    <td data-label="Role" class="role">${apiKey.role}</td>
    <td data-label="State">${apiKey.revokedAt ? html`<span class="status status-cancelled"><span aria-hidden="true">–</span> revoked ${formatDate(apiKey.revokedAt)}</span>` : html`<span class="status status-published"><span aria-hidden="true">✓</span> active</span>`}</td>
    <td data-label="Quota">${apiKey.fixedQuota === null ? 'per window' : `${apiKey.quotaUsed} / ${apiKey.fixedQuota}`}</td>
    <td data-label="Last used">${formatDate(apiKey.lastUsedAt)}</td>
    <td>${apiKey.revokedAt ? null : html`<button type="button" class="danger" disabled=${action.running} onClick=${confirmed(`Revoke the key “${apiKey.name}”? Whatever uses it stops working.`, revoke)} aria-label=${`Revoke ${apiKey.name}`}>Revoke</button>`}<${ErrorBox} error=${action.error} /></td>
  </tr>`;
}

/** Any JSON value as nested definition lists: the usage answer's network quotas have shapes of their own. */
function Facts({ value }) {
  if (value === null || typeof value !== 'object') return html`<span>${String(value)}</span>`;
  return html`<dl class="facts">${Object.entries(value).map(([k, v]) => html`<dt>${k}</dt><dd><${Facts} value=${v} /></dd>`)}</dl>`;
}

function Usage() {
  const usage = useLoad(() => api('/v1/usage').then((r) => r.data));
  return html`<section>
    <h2>Usage</h2>
    <p>Rate limit of this key: ${rateLimit.limit === null ? 'no per-window limit reported' : `${rateLimit.remaining} of ${rateLimit.limit} requests left in this window${rateLimit.reset ? ` (the window resets ${formatDate(new Date(Number(rateLimit.reset) * 1000).toISOString())})` : ''}`}.</p>
    <${ErrorBox} error=${usage.error} />
    ${usage.data ? html`
      <p>Video re-encoding (processMedia): ${usage.data.total_blocks} blocks, ${usage.data.total_renditions} renditions, ${usage.data.total_duration_seconds} s of video.</p>
      ${usage.data.items.length ? html`<div class="table-scroll"><table>
        <caption class="visually-hidden">Re-encoded videos</caption>
        <thead><tr><th>Made</th><th>Profile</th><th>Duration</th><th>Blocks</th></tr></thead>
        <tbody>${usage.data.items.map((item) => html`<tr>
          <td data-label="Made">${formatDate(item.created_at)}</td><td data-label="Profile">${item.profile}</td>
          <td data-label="Duration">${item.duration_seconds} s</td><td data-label="Blocks">${item.blocks}</td>
        </tr>`)}</tbody>
      </table></div>` : null}
      <h3>Network quotas</h3><${Facts} value=${usage.data.networks} />` : null}
  </section>`;
}

export function KeysPage() {
  const keys = useLoad(() => api('/v1/api-keys?limit=100').then((r) => r.data));
  const [created, setCreated] = useState(null);
  return html`<section>
    <h1>API keys</h1>
    ${created ? html`<${ShownOnce} label=${`API key “${created.name}” (${created.role})`} value=${created.key} onDone=${() => setCreated(null)} />` : null}
    <${CreateKey} onCreated=${(key) => { setCreated(key); keys.reload(); }} />
    <${ErrorBox} error=${keys.error} />
    <div class="table-scroll"><table>
      <caption class="visually-hidden">API keys</caption>
      <thead><tr><th>Name</th><th>Prefix</th><th>Role</th><th>State</th><th>Quota</th><th>Last used</th><th></th></tr></thead>
      <tbody>${(keys.data ?? []).map((k) => html`<${KeyRow} key=${k.id} apiKey=${k} onRevoked=${keys.reload} />`)}</tbody>
    </table></div>
    <${Usage} />
  </section>`;
}
