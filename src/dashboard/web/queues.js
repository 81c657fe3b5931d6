// Queues: per account, its posting queue (weekly slots at local times in an IANA zone: create, change,
// delete through /v1/queues) and its next slots with the posts standing in them
// (GET /v1/queues/:id/slots). Compose's "next free slot" fills them.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, query } from './api.js';
import { AccountLabel, ErrorBox, FieldErrors, confirmed, formatDate, useAction, useLoad } from './ui.js';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const PREVIEW_COUNT = 10;
const dayName = (day) => day.charAt(0).toUpperCase() + day.slice(1);

/** Every item of a paginated /v1 list (pages of 100). */
async function loadAll(path) {
  const items = [];
  for (let count = Infinity; items.length < count;) {
    const page = await api(`${path}${query({ limit: 100, offset: items.length })}`);
    if (!page.data.length) break;
    items.push(...page.data);
    count = page.count;
  }
  return items;
}

async function loadAccountsAndQueues() {
  const [accounts, queues] = await Promise.all([loadAll('/v1/social-accounts'), loadAll('/v1/queues')]);
  return { accounts, queueOf: new Map(queues.map((q) => [q.socialAccountId, q])) };
}

/** The next slots, each with the posts standing at it (their text read once per post). */
async function loadSlots(queueId) {
  const { data: slots } = await api(`/v1/queues/${queueId}/slots${query({ count: PREVIEW_COUNT })}`);
  const ids = [...new Set(slots.flatMap((s) => s.postIds))];
  const posts = await Promise.all(ids.map((id) => api(`/v1/posts/${id}`).then((r) => r.post, () => ({ id, containers: [] }))));
  const byId = new Map(posts.map((p) => [p.id, p]));
  return slots.map((slot) => ({ ...slot, posts: slot.postIds.map((id) => byId.get(id)) }));
}

function NextSlots({ queue }) {
  const slots = useLoad(() => loadSlots(queue.id), [queue.id, queue.updatedAt]);
  if (slots.error) return html`<${ErrorBox} error=${slots.error} />`;
  if (!slots.data) return html`<p aria-busy="true">Loading the next slots…</p>`;
  return html`<div class="table-scroll"><table class="slots">
    <caption>The next ${slots.data.length} slots</caption>
    <thead><tr><th>Slot (${queue.timeZone})</th><th>Your time</th><th>Posts</th></tr></thead>
    <tbody>${slots.data.map((slot) => html`<tr class="slot">
      <td data-label="Slot">${dayName(slot.day)} ${slot.time}</td>
      <td data-label="Your time">${formatDate(slot.at)}${slot.withinSchedulingWindow ? null : html` <span class="muted">(beyond the 30-day window)</span>`}</td>
      <td data-label="Posts">${slot.posts.length
        ? html`<span class="status status-pending"><span aria-hidden="true">◷</span> taken</span><ul class="slot-posts">${slot.posts.map((p) => html`<li><a href=${`#/posts/${p.id}`}>${p.containers[0]?.content || `post ${p.id}`}</a></li>`)}</ul>`
        : html`<span class="status status-free"><span aria-hidden="true">○</span> free</span>`}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

/** The slots and zone of a new or existing queue; the slots sent replace every slot. */
function QueueForm({ account, queue, onSaved, onCancel }) {
  const [timeZone, setTimeZone] = useState(queue?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [slots, setSlots] = useState(queue?.slots ?? [{ day: 'monday', time: '09:00' }]);
  const action = useAction();
  const setSlot = (index, change) => setSlots(slots.map((s, i) => (i === index ? { ...s, ...change } : s)));
  const submit = (event) => {
    event.preventDefault();
    const body = { timeZone: timeZone.trim(), slots };
    const save = () => (queue
      ? api(`/v1/queues/${queue.id}`, { method: 'PATCH', body })
      : api('/v1/queues', { method: 'POST', body: { socialAccountId: account.id, ...body } }));
    action.run(save).then((r) => r && onSaved());
  };
  const who = `@${account.username.replace(/^@/, '')}`;
  return html`<form class="queue-form" onSubmit=${submit} aria-label=${`Queue of ${who}`}>
    <label>Time zone (IANA name, such as Europe/Paris)<input name="timeZone" required value=${timeZone} onInput=${(e) => setTimeZone(e.target.value)} /></label>
    <${FieldErrors} details=${action.error?.details} field="timeZone" />
    <fieldset><legend>Weekly slots (local times in that zone)</legend>
      <ol class="slot-rows">${slots.map((slot, index) => html`<li class="slot-row">
        <label>Day<select name=${`day-${index}`} value=${slot.day} onChange=${(e) => setSlot(index, { day: e.target.value })}>${DAYS.map((d) => html`<option value=${d}>${dayName(d)}</option>`)}</select></label>
        <label>Time<input type="time" name=${`time-${index}`} required value=${slot.time} onInput=${(e) => setSlot(index, { time: e.target.value })} /></label>
        <button type="button" class="secondary" disabled=${slots.length === 1} onClick=${() => setSlots(slots.filter((_, i) => i !== index))} aria-label=${`Remove slot ${index + 1}`}>Remove</button>
        <${FieldErrors} details=${action.error?.details} field=${`slots[${index}]`} nested=${true} />
      </li>`)}</ol>
      <button type="button" class="secondary" onClick=${() => setSlots([...slots, { day: 'monday', time: '09:00' }])}>Add a slot</button>
      <${FieldErrors} details=${action.error?.details} field="slots" />
    </fieldset>
    <${ErrorBox} error=${action.error} />
    <p class="actions"><button type="submit" disabled=${action.running}>${queue ? 'Save the queue' : 'Create the queue'}</button>
      <button type="button" class="secondary" onClick=${onCancel}>Cancel</button></p>
  </form>`;
}

function AccountQueue({ account, queue, onChange }) {
  const [editing, setEditing] = useState(false);
  const remove = useAction();
  const doRemove = () => remove.run(() => api(`/v1/queues/${queue.id}`, { method: 'DELETE' })).then((r) => r && onChange());
  const saved = () => { setEditing(false); onChange(); };
  const who = `@${account.username.replace(/^@/, '')}`;
  return html`<li class="card account-queue">
    <h2><${AccountLabel} account=${account} /></h2>
    ${editing ? html`<${QueueForm} account=${account} queue=${queue} onSaved=${saved} onCancel=${() => setEditing(false)} />`
      : queue ? html`
        <p>${queue.slots.length} slot${queue.slots.length === 1 ? '' : 's'} a week in ${queue.timeZone}: ${queue.slots.map((s) => `${dayName(s.day)} ${s.time}`).join(', ')}</p>
        <p class="actions"><button type="button" class="secondary" onClick=${() => setEditing(true)} aria-label=${`Edit the queue of ${who}`}>Edit</button>
          <button type="button" class="danger" disabled=${remove.running} onClick=${confirmed(`Delete the queue of ${who}? Posts already in its slots keep their time.`, doRemove)} aria-label=${`Delete the queue of ${who}`}>Delete</button></p>
        <${ErrorBox} error=${remove.error} />
        <${NextSlots} queue=${queue} />`
      : html`<p class="muted">No queue: "next free slot" cannot schedule this account's posts.</p>
        <button type="button" onClick=${() => setEditing(true)} aria-label=${`Create a queue for ${who}`}>Create a queue</button>`}
  </li>`;
}

export function QueuesPage() {
  const data = useLoad(loadAccountsAndQueues);
  return html`<section>
    <h1>Queues</h1>
    <p class="muted">Each account's weekly posting slots. A post composed with "next free slot" takes the earliest slot free on all its accounts' queues, within 30 days.</p>
    <${ErrorBox} error=${data.error} />
    ${data.data && !data.data.accounts.length ? html`<p>No account connected yet. <a href="#/accounts">Connect one.</a></p>` : null}
    <ul class="cards" aria-busy=${data.loading}>${(data.data?.accounts ?? []).map((a) => html`<${AccountQueue} key=${a.id} account=${a} queue=${data.data.queueOf.get(a.id)} onChange=${data.reload} />`)}</ul>
  </section>`;
}
