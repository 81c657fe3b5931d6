// Small pieces every page uses: network badges, statuses that read without colour, dates, errors,
// copy buttons and a loader hook.
import { html } from 'htm/preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { NETWORK_LABELS } from './networks.js';

/**
 * A network's name as people write it (`google_business` → `Google Business Profile`), from Crier's
 * network registry (networks.js); a network this Crier does not know keeps its id, capitalised.
 */
export const networkName = (id) => NETWORK_LABELS[id] ?? id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, ' ');

/** What the API's request fields are called on the dashboard's forms (`details[].field` → words). */
const FIELD_LABELS = {
  accounts: 'Accounts',
  content: 'Text',
  containers: 'Thread',
  scheduledAt: 'Publish at',
  isDraft: 'Save as a draft',
  processMedia: 'Re-encode videos',
  tenantId: 'Tenant id',
  name: 'Name',
  url: 'URL',
  events: 'Events',
  client_key: 'Client key',
  client_secret: 'Client secret',
  handle: 'Handle',
  appPassword: 'App password',
  fixedQuota: 'Quota',
};

/**
 * A field of the API's `details` in words: `scheduledAt` → "Publish at", `containers[1].media[0]` →
 * "Thread part 2, media 1", `socialAccounts[1]` → "Account 2", `pinterest.board_id` → "Pinterest
 * option: board id". The API's own name stays in the tooltip, for whoever reads the API reference.
 */
export function fieldLabel(field) {
  const part = field.match(/^containers\[(\d+)\](?:\.(content|media)(?:\[(\d+)\])?)?/);
  if (part) {
    const [, index, what, media] = part;
    const where = `Thread part ${Number(index) + 1}`;
    if (what === 'media') return media === undefined ? `${where}, media` : `${where}, media ${Number(media) + 1}`;
    return what === 'content' ? `${where}, text` : where;
  }
  const account = field.match(/^(?:accounts|socialAccounts)\[(\d+)\]$/);
  if (account) return `Account ${Number(account[1]) + 1}`;
  const [head, ...rest] = field.split('.');
  if (rest.length && NETWORK_LABELS[head]) return `${networkName(head)} option: ${rest.join('.').replace(/_/g, ' ')}`;
  return FIELD_LABELS[field] ?? field.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, (_, a, b) => `${a} ${b.toLowerCase()}`).replace(/^./, (c) => c.toUpperCase());
}

/** A field named for people, with the API's name on hover. */
export function FieldName({ field }) {
  return html`<span class="field-name" title=${field}>${fieldLabel(field)}</span>`;
}

/** A stable hue per network id, so each network's badge is recognisable without a logo. */
function hueOf(id) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

/** The network's icon: its initials on a colour of its own; the name is always said for screen readers. */
export function NetworkIcon({ network }) {
  const parts = network.split('_');
  // Two letters tell apart networks sharing an initial; multi-word ids use their words' initials.
  const initials = parts.length > 1 ? parts.map((part) => part[0].toUpperCase()).join('').slice(0, 2) : network.charAt(0).toUpperCase() + network.slice(1, 2);
  return html`<span class="network-icon" style=${`--hue:${hueOf(network)}`} role="img" aria-label=${networkName(network)} title=${networkName(network)}>${initials}</span>`;
}

export function AccountLabel({ account }) {
  return html`<span class="account"><${NetworkIcon} network=${account.network} /> <span>@${account.username.replace(/^@/, '')}</span></span>`;
}

const STATUS_SYMBOL = { published: '✓', failed: '✗', pending: '◷', publishing: '↻', unknown: '?', cancelled: '–', deleted: '⌫', pending_approval: '◔', rejected: '⊘' };
/** Statuses whose API word is not plain English (`pending_approval`). */
const STATUS_WORDS = { pending_approval: 'waiting for approval' };

/** A destination's status: a symbol and a word, with a colour as a third cue only. */
export function Status({ status }) {
  return html`<span class=${`status status-${status}`}><span aria-hidden="true">${STATUS_SYMBOL[status] ?? '•'}</span> ${STATUS_WORDS[status] ?? status}</span>`;
}

/** Runs `action` once the user confirms what it cannot undo. */
export const confirmed = (question, action) => () => { if (confirm(question)) action(); };

export const formatDate = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

export function ErrorBox({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">
    <strong>${error.message}</strong>
    ${error.billingUrl ? html` <a href=${error.billingUrl}>Manage the subscription</a>` : null}
    ${error.details?.length ? html`<ul>${error.details.map((d) => html`<li><${FieldName} field=${d.field} />: ${d.message}</li>`)}</ul>` : null}
  </div>`;
}

/** A field's API error messages (from `details`), shown under the field; with `nested`, its parts' too. */
export function FieldErrors({ details, field, nested = false }) {
  const mine = (details ?? []).filter((d) => d.field === field || (nested && (d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`))));
  if (!mine.length) return null;
  return html`<ul class="field-errors">${mine.map((d) => html`<li>${d.message}</li>`)}</ul>`;
}

export function CopyButton({ text, label = 'Copy' }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try { await navigator.clipboard.writeText(text); setCopied(true); } catch { setCopied(false); }
  };
  return html`<button type="button" class="secondary" onClick=${copy}>${copied ? 'Copied' : label}</button>`;
}

/** Shown once: a secret the API will never return again, with a copy button. */
export function ShownOnce({ label, value, onDone }) {
  return html`<div class="shown-once" role="status">
    <p><strong>${label}</strong> — shown this once; store it now.</p>
    <p class="secret"><code data-testid="secret">${value}</code> <${CopyButton} text=${value} /></p>
    <button type="button" class="secondary" onClick=${onDone}>I stored it</button>
  </div>`;
}

/** Loads with `load()` on mount and when `deps` change; `reload` runs it again. */
export function useLoad(load, deps = []) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const reload = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    return load().then((data) => setState({ data, error: null, loading: false }), (error) => setState({ data: null, error, loading: false }));
  }, deps);
  useEffect(() => { reload(); }, [reload]);
  return { ...state, reload };
}

/** Runs an action, keeping its error and whether it is running (buttons disable themselves meanwhile). */
export function useAction() {
  const [state, setState] = useState({ running: false, error: null });
  const run = async (action) => {
    setState({ running: true, error: null });
    try {
      const result = await action();
      setState({ running: false, error: null });
      return result;
    } catch (error) {
      setState({ running: false, error });
      return undefined;
    }
  };
  return { ...state, run, clear: () => setState({ running: false, error: null }) };
}
