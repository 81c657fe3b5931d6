// Compose: a post or a thread (containers) to the accounts picked, media uploaded through the media
// flow with a progress bar, an optional schedule (a time, or the next free slot of the accounts'
// queues), and each targeted network's option block built from the API's own description of
// POST /v1/posts. The API's dry run checks the post as it is typed, and its `details` are shown under
// the field they name; its per-network `preview` is shown as each network will publish the post
// (compose-preview.js). One Idempotency-Key per body: a double click, or a retry after a lost answer,
// creates one post.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, apiDescription, uploadMedia } from './api.js';
import { ComposePreview } from './compose-preview.js';
import { NetworkBlock } from './options.js';
import { AccountLabel, ErrorBox, FieldErrors, FieldName, NetworkIcon, formatDate, useLoad } from './ui.js';

const DRY_RUN_DELAY_MS = 400;
/** The API's scheduledAt for "the next slot free on every targeted account's queue" (queues.js). */
const NEXT_FREE_SLOT = 'next-free-slot';

const newKey = () => crypto.randomUUID();
const emptyContainer = () => ({ id: newKey(), content: '', media: [] });

/** Each network's option block (its JSON schema) as POST /v1/posts describes it, by network id. */
async function loadBlocks() {
  const description = await apiDescription();
  const body = description.paths['/v1/posts'].post.requestBody.content['application/json'].schema;
  return Object.fromEntries(Object.entries(body.properties).filter(([, schema]) => schema.type === 'object' && schema.properties));
}

/** What the form says, as the API's body: only uploaded media, only the options given. */
function bodyOf(form) {
  const blocks = {};
  for (const [network, values] of Object.entries(form.blocks)) {
    if (!form.networks.includes(network)) continue;
    const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== undefined && v !== false));
    if (Object.keys(given).length) blocks[network] = given;
  }
  return {
    accounts: form.accounts,
    containers: form.containers.map((c) => ({
      content: c.content,
      media: c.media.filter((m) => m.url).map((m) => ({ url: m.url, filename: m.filename, ...(m.altText ? { altText: m.altText } : {}) })),
    })),
    ...scheduleOf(form),
    ...(form.isDraft ? { isDraft: true } : {}),
    ...(form.processMedia ? { processMedia: true } : {}),
    ...blocks,
  };
}

/** When: the next slot free on the accounts' queues, a time (datetime-local is local time), or now. */
function scheduleOf(form) {
  if (form.nextFreeSlot) return { scheduledAt: NEXT_FREE_SLOT };
  return form.scheduledAt ? { scheduledAt: new Date(form.scheduledAt).toISOString() } : {};
}

/** Whether a `details` entry is shown under a field of the form (else it is listed above the button). */
function shownAtField(field, networks, blocks) {
  if (field === 'accounts' || field === 'scheduledAt' || /^containers\[\d+\]\.(content|media)$/.test(field)) return true;
  const [network, name, ...rest] = field.split('.');
  const schema = networks.includes(network) ? blocks[network]?.properties[name] : undefined;
  return !!schema && (rest.length === 0 || schema.type === 'object' || schema.type === 'array');
}

function AccountPicker({ accounts, selected, onToggle }) {
  return html`<fieldset class="accounts-picker">
    <legend>Accounts</legend>
    ${accounts.map((a) => html`<label class="check">
      <input type="checkbox" name="account" value=${a.id} checked=${selected.includes(a.id)} disabled=${!a.isActive} onChange=${() => onToggle(a.id)} />
      <${AccountLabel} account=${a} />${a.isActive ? null : html` <span class="muted">(disconnected)</span>`}
    </label>`)}
  </fieldset>`;
}

function MediaItem({ item, onAlt, onRemove }) {
  return html`<li class="media-item">
    <span>${item.filename}</span>
    ${item.url ? html`<span class="status status-published"><span aria-hidden="true">✓</span> uploaded</span>`
      : item.error ? html`<span class="status status-failed"><span aria-hidden="true">✗</span> ${item.error}</span>`
      : html`<progress max="1" value=${item.progress} aria-label=${`Uploading ${item.filename}`}>${Math.round(item.progress * 100)}%</progress>`}
    <label>Alt text<input value=${item.altText} onInput=${(e) => onAlt(e.target.value)} /></label>
    <button type="button" class="secondary" onClick=${onRemove} aria-label=${`Remove ${item.filename}`}>Remove</button>
  </li>`;
}

function ContainerEditor({ index, container, count, details, onChange, onRemove, onUpload }) {
  const field = `containers[${index}].content`;
  const setMedia = (key, change) => onChange({ media: container.media.map((m) => (m.key === key ? { ...m, ...change } : m)) });
  return html`<fieldset class="container">
    <legend>${count > 1 ? `Part ${index + 1} of the thread` : 'Post'}</legend>
    <label for=${`content-${index}`}>Text</label>
    <textarea id=${`content-${index}`} name=${field} rows="4" value=${container.content} onInput=${(e) => onChange({ content: e.target.value })} aria-describedby=${`count-${index}`}></textarea>
    <p class="muted" id=${`count-${index}`}>${[...container.content].length} characters</p>
    <${FieldErrors} details=${details} field=${field} />
    <label>Attach an image or a video<input type="file" accept="image/*,video/*" multiple onChange=${(e) => { onUpload([...e.target.files]); e.target.value = ''; }} /></label>
    <ul class="media">${container.media.map((m) => html`<${MediaItem} item=${m} onAlt=${(altText) => setMedia(m.key, { altText })} onRemove=${() => onChange({ media: container.media.filter((x) => x.key !== m.key) })} />`)}</ul>
    <${FieldErrors} details=${details} field=${`containers[${index}].media`} />
    ${count > 1 ? html`<button type="button" class="secondary" onClick=${onRemove}>Remove part ${index + 1}</button>` : null}
  </fieldset>`;
}

function Verdicts({ verdicts }) {
  if (!verdicts?.length) return null;
  return html`<ul class="verdicts" aria-label="Dry run">${verdicts.map((v) => html`<li>
    <${NetworkIcon} network=${v.network} /> @${v.username.replace(/^@/, '')}: ${v.ok ? html`<span class="status status-published"><span aria-hidden="true">✓</span> ready</span>` : html`<span class="status status-failed"><span aria-hidden="true">✗</span> ${v.reasons.join('; ')}</span>`}
  </li>`)}</ul>`;
}

/** A form started from elsewhere (the calendar's free slot: `#/compose?account=…&at=…`): that account, that time. */
function startingForm(query) {
  const given = new URLSearchParams(query ?? '');
  const at = given.get('at') ? new Date(given.get('at')) : undefined;
  // datetime-local takes the local wall-clock time, without a zone.
  const scheduledAt = at && !Number.isNaN(at.getTime()) ? new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16) : '';
  return { accounts: given.get('account') ? [given.get('account')] : [], containers: [emptyContainer()], scheduledAt, nextFreeSlot: false, isDraft: false, processMedia: false, blocks: {} };
}

export function ComposePage({ query }) {
  const accounts = useLoad(() => api('/v1/social-accounts?limit=100').then((r) => r.data));
  const blocks = useLoad(loadBlocks);
  const [form, setForm] = useState(() => startingForm(query));
  const [check, setCheck] = useState({ details: [], verdicts: null, error: null, slot: null });
  const [submitError, setSubmitError] = useState(null);
  const [submitting, setSubmitting] = useState(false);
  // A new key whenever the body changes; the same key for every send of one body.
  const idempotency = useRef({ body: '', key: newKey() });
  const sending = useRef(false);

  const byId = new Map((accounts.data ?? []).map((a) => [a.id, a]));
  const networks = [...new Set(form.accounts.map((id) => byId.get(id)?.network).filter(Boolean))];
  const body = bodyOf({ ...form, networks });
  const bodyText = JSON.stringify(body);
  const uploading = form.containers.some((c) => c.media.some((m) => !m.url && !m.error));

  // Only the answer to the latest body is shown: an earlier dry run answering late is dropped.
  const latestCheck = useRef(0);
  useEffect(() => {
    const turn = ++latestCheck.current;
    if (!form.accounts.length) { setCheck({ details: [], verdicts: null, error: null, slot: null }); return undefined; }
    const show = (next) => { if (turn === latestCheck.current) setCheck(next); };
    const timer = setTimeout(() => {
      api('/v1/posts?dry_run=true', { method: 'POST', body })
        .then((r) => show({ details: [], verdicts: r.destinations, error: null, slot: r.scheduledAt ?? null }))
        .catch((error) => show({ details: error.details, verdicts: null, error: error.details.length ? null : error, slot: null }));
    }, DRY_RUN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [bodyText]);

  const update = (change) => setForm((f) => ({ ...f, ...change }));
  const updateContainer = (id, change) => setForm((f) => ({ ...f, containers: f.containers.map((c) => (c.id === id ? { ...c, ...change } : c)) }));
  const toggleAccount = (id) => setForm((f) => ({ ...f, accounts: f.accounts.includes(id) ? f.accounts.filter((a) => a !== id) : [...f.accounts, id] }));
  const setMediaItem = (containerId, key, change) => setForm((f) => ({ ...f, containers: f.containers.map((c) => (c.id === containerId ? { ...c, media: c.media.map((m) => (m.key === key ? { ...m, ...change } : m)) } : c)) }));

  const upload = (containerId, files) => {
    for (const file of files) {
      const key = newKey();
      setForm((f) => ({ ...f, containers: f.containers.map((c) => (c.id === containerId ? { ...c, media: [...c.media, { key, filename: file.name, progress: 0, url: null, error: null, altText: '' }] } : c)) }));
      uploadMedia(file, (progress) => setMediaItem(containerId, key, { progress }))
        .then((media) => setMediaItem(containerId, key, { url: media.url, filename: media.filename, progress: 1 }))
        .catch((error) => setMediaItem(containerId, key, { error: error.message }));
    }
  };

  const submit = async (event) => {
    event.preventDefault();
    if (sending.current) return; // the second click of a double click: the first is on its way
    if (idempotency.current.body !== bodyText) idempotency.current = { body: bodyText, key: newKey() };
    sending.current = true;
    setSubmitting(true);
    setSubmitError(null);
    try {
      const created = await api('/v1/posts', { method: 'POST', body, headers: { 'idempotency-key': idempotency.current.key } });
      location.hash = `#/posts/${created.post.id}`;
    } catch (error) {
      setSubmitError(error);
    } finally {
      sending.current = false;
      setSubmitting(false);
    }
  };

  if (accounts.error || blocks.error) return html`<${ErrorBox} error=${accounts.error ?? blocks.error} />`;
  if (!accounts.data || !blocks.data) return html`<p aria-busy="true">Loading…</p>`;
  const accountOf = (network) => form.accounts.map((id) => byId.get(id)).find((a) => a?.network === network);
  return html`<section>
    <h1>New post</h1>
    <form class="compose" onSubmit=${submit}>
      <${AccountPicker} accounts=${accounts.data} selected=${form.accounts} onToggle=${toggleAccount} />
      <${FieldErrors} details=${check.details} field="accounts" />
      ${form.containers.map((c, index) => html`<${ContainerEditor} key=${c.id} index=${index} container=${c} count=${form.containers.length} details=${check.details}
        onChange=${(change) => updateContainer(c.id, change)} onRemove=${() => update({ containers: form.containers.filter((x) => x.id !== c.id) })} onUpload=${(files) => upload(c.id, files)} />`)}
      <p><button type="button" class="secondary" onClick=${() => update({ containers: [...form.containers, emptyContainer()] })}>Add a reply to the thread</button></p>
      ${networks.filter((n) => blocks.data[n]).map((network) => html`<${NetworkBlock} key=${network} network=${network} schema=${blocks.data[network]}
        values=${form.blocks[network] ?? {}} account=${accountOf(network)} details=${check.details} onChange=${(values) => update({ blocks: { ...form.blocks, [network]: values } })} />`)}
      <fieldset class="schedule"><legend>When</legend>
        <label>Publish at (empty: now)<input type="datetime-local" name="scheduledAt" value=${form.scheduledAt} disabled=${form.nextFreeSlot} onInput=${(e) => update({ scheduledAt: e.target.value })} /></label>
        <label class="check"><input type="checkbox" name="nextFreeSlot" checked=${form.nextFreeSlot} onChange=${(e) => update({ nextFreeSlot: e.target.checked })} /> Next free slot of the accounts' queues</label>
        ${form.nextFreeSlot ? html`<p class="muted" data-testid="next-slot">${check.slot ? `The next free slot now: ${formatDate(check.slot)}`
          : check.details.length || check.error ? html`Each account needs a queue with a free slot within 30 days: <a href="#/queues">Queues</a>` : 'Finding the next free slot…'}</p>` : null}
        <label class="check"><input type="checkbox" checked=${form.isDraft} onChange=${(e) => update({ isDraft: e.target.checked })} /> Save as a draft</label>
        <label class="check"><input type="checkbox" checked=${form.processMedia} onChange=${(e) => update({ processMedia: e.target.checked })} /> Re-encode videos for each network (counted in usage)</label>
        <${FieldErrors} details=${check.details} field="scheduledAt" />
      </fieldset>
      <div role="status" aria-live="polite">
        <${Verdicts} verdicts=${check.verdicts} />
        ${check.details.filter((d) => !shownAtField(d.field, networks, blocks.data)).map((d) => html`<p class="field-errors"><${FieldName} field=${d.field} />: ${d.message}</p>`)}
        <${ErrorBox} error=${check.error} />
      </div>
      <${ComposePreview} destinations=${check.verdicts} containers=${form.containers}
        waiting=${check.details.length ? 'The preview shows once the problems above are fixed.' : null} />
      <${ErrorBox} error=${submitError} />
      <button type="submit" disabled=${submitting || uploading || !form.accounts.length}>${form.scheduledAt || form.nextFreeSlot ? 'Schedule' : 'Publish'}</button>
    </form>
  </section>`;
}
