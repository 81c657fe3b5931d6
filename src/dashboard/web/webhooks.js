// Webhooks: create and edit (the events offered are the API's own list), enable or disable, send a
// test, the delivery log (each attempt, its status, response time and next retry) with redelivery,
// and a generated secret shown once.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, apiDescription } from './api.js';
import { ErrorBox, confirmed, FieldErrors, ShownOnce, formatDate, useAction, useLoad } from './ui.js';

async function eventNames() {
  const description = await apiDescription();
  return description.paths['/v1/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items.enum;
}

function WebhookForm({ initial, events, submitLabel, onSave, onCancel }) {
  const [values, setValues] = useState({ name: initial?.name ?? '', url: initial?.url ?? '', events: initial?.events ?? ['post.published', 'post.error'].filter((e) => events.includes(e)), generateSecret: !initial });
  const action = useAction();
  const toggle = (event) => setValues({ ...values, events: values.events.includes(event) ? values.events.filter((e) => e !== event) : [...values.events, event] });
  const submit = (e) => {
    e.preventDefault();
    const body = { name: values.name, url: values.url, events: values.events, ...(values.generateSecret ? { generateSecret: true } : {}) };
    action.run(() => onSave(body));
  };
  const details = action.error?.details;
  return html`<form class="card" onSubmit=${submit}>
    <label>Name<input name="name" required value=${values.name} onInput=${(e) => setValues({ ...values, name: e.target.value })} /></label>
    <${FieldErrors} details=${details} field="name" />
    <label>URL<input name="url" type="url" required value=${values.url} placeholder="https://app.example.com/hooks/crier" onInput=${(e) => setValues({ ...values, url: e.target.value })} /></label>
    <${FieldErrors} details=${details} field="url" />
    <fieldset><legend>Events</legend>
      ${events.map((event) => html`<label class="check"><input type="checkbox" checked=${values.events.includes(event)} onChange=${() => toggle(event)} /> ${event}</label>`)}
    </fieldset>
    <${FieldErrors} details=${details} field="events" />
    <label class="check"><input type="checkbox" checked=${values.generateSecret} onChange=${(e) => setValues({ ...values, generateSecret: e.target.checked })} /> ${initial ? 'Generate a new signing secret' : 'Generate a signing secret'}</label>
    <${ErrorBox} error=${action.error} />
    <p><button type="submit" disabled=${action.running}>${submitLabel}</button> ${onCancel ? html`<button type="button" class="secondary" onClick=${onCancel}>Cancel</button>` : null}</p>
  </form>`;
}

function DeliveryResult({ delivery }) {
  if (delivery.succeeded) return html`<span class="status status-published"><span aria-hidden="true">✓</span> delivered</span>`;
  if (!delivery.finishedAt) return html`<span class="status status-pending"><span aria-hidden="true">◷</span> sending</span>`;
  const retry = delivery.deliveryState === 'pending' ? ' (will retry)' : '';
  return html`<span class="status status-failed"><span aria-hidden="true">✗</span> failed${retry}${delivery.error ? `: ${delivery.error}` : ''}</span>`;
}

/** How long the log is followed after a test or a redelivery: the attempt may not have started yet. */
const FOLLOW_MS = 15_000;

/** A delivery log: a webhook's (GET /v1/webhooks/:id/deliveries) or a post's events' (GET /v1/posts/:id/deliveries, with the webhook named). */
export function DeliveryLog({ path, followSince, showWebhook = false }) {
  const log = useLoad(() => api(path).then((r) => r.data), [path]);
  const redeliver = useAction();
  const [followUntil, setFollowUntil] = useState(() => (followSince ? followSince + FOLLOW_MS : 0));
  useEffect(() => { if (followSince) setFollowUntil(followSince + FOLLOW_MS); }, [followSince]);
  // An attempt on its way, or one just asked for, is followed closely; a retry still due, loosely.
  const inFlight = log.data?.some((d) => !d.finishedAt) || Date.now() < followUntil;
  const retryDue = log.data?.some((d) => d.deliveryState === 'pending');
  useEffect(() => {
    if (!inFlight && !retryDue) return undefined;
    const timer = setTimeout(log.reload, inFlight ? 1000 : 5000);
    return () => clearTimeout(timer);
  }, [log.data, followUntil]);
  const again = (id) => redeliver.run(() => api(`/v1/webhooks/deliveries/${id}/redeliver`, { method: 'POST', body: {} })).then((r) => r && setFollowUntil(Date.now() + FOLLOW_MS));
  return html`<div class="delivery-log">
    <p><button type="button" class="secondary" onClick=${log.reload}>Refresh the log</button></p>
    <${ErrorBox} error=${log.error ?? redeliver.error} />
    ${log.data && !log.data.length ? html`<p class="muted">No delivery yet.</p>` : null}
    <div class="table-scroll"><table>
      <caption class="visually-hidden">Deliveries</caption>
      <thead><tr>${showWebhook ? html`<th>Webhook</th>` : null}<th>Event</th><th>Attempt</th><th>Result</th><th>HTTP status</th><th>Time</th><th>Started</th><th>Next retry</th><th></th></tr></thead>
      <tbody>${(log.data ?? []).map((d) => html`<tr class="delivery">
        ${showWebhook ? html`<td data-label="Webhook">${d.webhookName}</td>` : null}
        <td data-label="Event">${d.event}${d.redelivery ? ' (redelivery)' : ''}</td>
        <td data-label="Attempt">${d.attempt}</td>
        <td data-label="Result"><${DeliveryResult} delivery=${d} /></td>
        <td data-label="HTTP status">${d.statusCode ?? '—'}</td>
        <td data-label="Time">${d.latencyMs === null ? '—' : `${d.latencyMs} ms`}</td>
        <td data-label="Started">${formatDate(d.startedAt)}</td>
        <td data-label="Next retry">${formatDate(d.nextAttemptAt)}</td>
        <td><button type="button" class="secondary" disabled=${redeliver.running} onClick=${() => again(d.id)}>Redeliver</button></td>
      </tr>`)}</tbody>
    </table></div>
  </div>`;
}

function Webhook({ hook, events, onChanged, onSecret }) {
  const [mode, setMode] = useState(null); // 'edit' | 'log'
  const [testSentAt, setTestSentAt] = useState(0);
  const action = useAction();
  const patch = (body) => api(`/v1/webhooks/${hook.id}`, { method: 'PATCH', body }).then((r) => { if (r.data.secret) onSecret(r.data.secret); setMode(null); onChanged(); });
  const test = () => action.run(() => api(`/v1/webhooks/${hook.id}/test`, { method: 'POST', body: {} })).then((r) => { if (r) { setTestSentAt(Date.now()); setMode('log'); } });
  const remove = () => action.run(() => api(`/v1/webhooks/${hook.id}`, { method: 'DELETE' })).then((r) => r && onChanged());
  return html`<li class="card webhook">
    <h2>${hook.name} <span class=${`status ${hook.enabled ? 'status-published' : 'status-cancelled'}`}><span aria-hidden="true">${hook.enabled ? '●' : '○'}</span> ${hook.enabled ? 'enabled' : 'disabled'}</span></h2>
    <p><code>${hook.url}</code></p>
    <p class="muted">${hook.events.join(', ')} · ${hook.hasSecret ? 'signed' : 'no secret'}</p>
    <p class="actions">
      <button type="button" class="secondary" onClick=${() => setMode(mode === 'edit' ? null : 'edit')}>Edit</button>
      <button type="button" class="secondary" disabled=${action.running} onClick=${() => action.run(() => patch({ enabled: !hook.enabled }))}>${hook.enabled ? 'Disable' : 'Enable'}</button>
      <button type="button" class="secondary" disabled=${action.running} onClick=${test}>Send a test</button>
      <button type="button" class="secondary" aria-expanded=${mode === 'log'} onClick=${() => setMode(mode === 'log' ? null : 'log')}>Delivery log</button>
      <button type="button" class="danger" disabled=${action.running} onClick=${confirmed(`Delete the webhook “${hook.name}” and its delivery log?`, remove)}>Delete</button>
    </p>
    <${ErrorBox} error=${action.error} />
    ${mode === 'edit' ? html`<${WebhookForm} initial=${hook} events=${events} submitLabel="Save" onSave=${patch} onCancel=${() => setMode(null)} />` : null}
    ${mode === 'log' ? html`<${DeliveryLog} path=${`/v1/webhooks/${hook.id}/deliveries?limit=50`} followSince=${testSentAt} />` : null}
  </li>`;
}

export function WebhooksPage() {
  const hooks = useLoad(() => api('/v1/webhooks?limit=100').then((r) => r.data));
  const events = useLoad(eventNames);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState(null);
  const create = (body) => api('/v1/webhooks', { method: 'POST', body }).then((r) => { setCreating(false); if (r.data.secret) setSecret(r.data.secret); hooks.reload(); });
  return html`<section>
    <div class="page-head"><h1>Webhooks</h1><button type="button" onClick=${() => setCreating(!creating)} aria-expanded=${creating}>New webhook</button></div>
    ${secret ? html`<${ShownOnce} label="Signing secret" value=${secret} onDone=${() => setSecret(null)} />` : null}
    ${creating && events.data ? html`<${WebhookForm} events=${events.data} submitLabel="Create the webhook" onSave=${create} onCancel=${() => setCreating(false)} />` : null}
    <${ErrorBox} error=${hooks.error ?? events.error} />
    ${hooks.data && !hooks.data.length ? html`<p>No webhook yet.</p>` : null}
    <ul class="cards">${(hooks.data ?? []).map((hook) => html`<${Webhook} key=${hook.id} hook=${hook} events=${events.data ?? []} onChanged=${hooks.reload} onSecret=${setSecret} />`)}</ul>
  </section>`;
}
