// Calendar: the posts of a week or a month in the browser's time zone — scheduled, standing in a
// queue's slot, occurrences of a recurring post, waiting for approval — the queues' free slots as
// empty places, and the occurrences active recurrences have not created yet, marked as projected.
// A post that has not gone out is moved by dragging its card to another day or hour (or with its
// "Move…" button, from the keyboard): PATCH /v1/posts/:id, whose refusal is shown and the card put
// back. Everything comes from the public API: GET /v1/posts (scheduled range), /v1/queues and their
// slots, /v1/recurrences.
import { html } from 'htm/preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, query } from './api.js';
import { ErrorBox, NetworkIcon, Status, networkName, useLoad } from './ui.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const RULE_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** Hours the week always shows; earlier or later ones appear when something stands there. */
const FIRST_HOUR = 7;
const LAST_HOUR = 22;
const MONTH_WEEKS = 6;
/** Posts read per range at most (pages of 100): a calendar of more is unreadable anyway. */
const MAX_POSTS = 2000;
/** The queue preview's largest count: the next 100 slots of each queue. */
const SLOT_PREVIEW = 100;
/** Projected occurrences of one recurrence in one range at most (an hourly rule over a month). */
const MAX_PROJECTED = 800;
/** Destination statuses of a post that has not gone out, which a drag may move. */
const MOVABLE = new Set(['pending', 'pending_approval']);
const STATUS_CHOICES = [
  ['', 'Any status'], ['pending', 'Pending'], ['pending_approval', 'Waiting for approval'], ['published', 'Published'],
  ['failed', 'Failed'], ['cancelled', 'Cancelled'], ['rejected', 'Rejected'],
];

// ——— Dates, in the browser's zone ———

const addDays = (date, days) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
const startOfDay = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate());
const startOfWeek = (date) => addDays(startOfDay(date), -((date.getDay() + 6) % 7));
const pad = (n) => String(n).padStart(2, '0');
/** A local day's key (`2026-11-30`), as cells and tests name days. */
const dayKey = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const timeOf = (date) => `${pad(date.getHours())}:${pad(date.getMinutes())}`;
/** A datetime-local input's value for a date (local time, to the minute). */
const localInput = (date) => `${dayKey(date)}T${timeOf(date)}`;
const longDay = (date) => date.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const shortDay = (date) => date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
const dayHead = (date) => date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
/** An instant as the page says it: "Dec 28, 2026, 12:30 AM" in the browser's language. */
const when = (date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The days shown: a week from Monday, or six weeks from the Monday on or before the month's first day. */
function rangeOf(view, anchor) {
  if (view === 'week') {
    const start = startOfWeek(anchor);
    return { start, end: addDays(start, 7), title: `${shortDay(start)} – ${addDays(start, 6).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}` };
  }
  const first = new Date(anchor.getFullYear(), anchor.getMonth(), 1);
  const start = startOfWeek(first);
  // Always six weeks: the grid keeps its height from month to month, and every day of the month has
  // at least the next four days in the grid to be dragged to.
  const end = addDays(start, MONTH_WEEKS * 7);
  return { start, end, month: anchor.getMonth(), title: first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' }) };
}

const daysOf = (range) => {
  const days = [];
  for (let day = range.start; day < range.end; day = addDays(day, 1)) days.push(day);
  return days;
};

const stepped = (view, anchor, step) => (view === 'week' ? addDays(anchor, 7 * step) : new Date(anchor.getFullYear(), anchor.getMonth() + step, 1));

// ——— Recurring rules, projected (src/recurrences/rule.ts, mirrored for display) ———

/** The zone's offset from UTC at `ms`, in ms, read from Intl (the browser knows every IANA zone). */
function zoneOffset(ms, timeZone) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    .formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant of a wall-clock time in a zone; undefined when that time does not exist (spring gap). */
function zonedInstant(year, month, day, hour, minute, timeZone) {
  const wall = Date.UTC(year, month, day, hour, minute);
  const first = wall - zoneOffset(wall, timeZone);
  const at = wall - zoneOffset(first, timeZone);
  // The earlier of two readings is the first of a repeated hour; a gap reads back another time.
  const earlier = Math.min(first, at);
  return earlier + zoneOffset(earlier, timeZone) === wall ? new Date(earlier) : at + zoneOffset(at, timeZone) === wall ? new Date(at) : undefined;
}

/** The first instant of a weekly rule strictly after `after`. */
function nextWeekly(weekly, after) {
  const [hour, minute] = weekly.time.split(':').map(Number);
  const local = new Date(after.getTime() + zoneOffset(after.getTime(), weekly.timeZone));
  for (let d = 0; d <= 15; d++) {
    const day = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + d));
    if (!weekly.days.includes(RULE_DAYS[day.getUTCDay()])) continue;
    const at = zonedInstant(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hour, minute, weekly.timeZone);
    if (at && at > after) return at;
  }
  return undefined;
}

function occurrenceAfter(recurrence, at) {
  if (recurrence.weekly) return nextWeekly(recurrence.weekly, at);
  const { days = 0, hours = 0 } = recurrence.every ?? {};
  const step = (days * 24 + hours) * 3_600_000;
  return step > 0 ? new Date(at.getTime() + step) : undefined;
}

/** The text an occurrence would have: the body's own first, then each variation, cycling. */
function occurrenceText(recurrence, index) {
  const contents = [recurrence, ...(recurrence.variations ?? [])];
  const body = contents[index % contents.length];
  return body?.content ?? body?.containers?.[0]?.content ?? '';
}

/** The occurrences an active recurrence will create within the range (not created yet). */
function projectedOccurrences(recurrence, range) {
  if (recurrence.status !== 'active' || !recurrence.nextOccurrenceAt) return [];
  const items = [];
  let index = recurrence.nextOccurrenceIndex ?? 0;
  for (let at = new Date(recurrence.nextOccurrenceAt); at && at < range.end && items.length < MAX_PROJECTED; at = occurrenceAfter(recurrence, at), index++) {
    if (recurrence.count !== null && index >= recurrence.count) break;
    if (recurrence.until && at > new Date(recurrence.until)) break;
    if (at >= range.start) items.push({ kind: 'projected', key: `${recurrence.id}:${index}`, at, recurrence, text: occurrenceText(recurrence, index) });
  }
  return items;
}

// ——— Loading ———

/** Every item of a paginated /v1 list (pages of 100), at most `max`. */
async function loadAll(path, params = {}, max = Infinity) {
  const items = [];
  for (let total = Infinity; items.length < Math.min(total, max);) {
    const page = await api(`${path}${query({ ...params, limit: 100, offset: items.length })}`);
    const rows = page.posts ?? page.data;
    if (!rows.length) break;
    items.push(...rows);
    total = page.pagination?.total ?? page.count ?? page.total ?? Infinity;
  }
  return items;
}

/** The accounts a filter keeps: one account, a tenant's accounts, or all. */
function accountsIn(accounts, filters) {
  return accounts.filter((a) => (!filters.accountId || a.id === filters.accountId) && (!filters.tenantId || a.tenantId === filters.tenantId));
}

/** The posts scheduled in the range; `status`: those with a destination in it (to the account or tenant shown). */
function loadPosts(range, filters) {
  return loadAll('/v1/posts', {
    scheduled_after: range.start.toISOString(), scheduled_before: range.end.toISOString(),
    social_account_id: filters.accountId, tenant_id: filters.tenantId, status: filters.status,
  }, MAX_POSTS);
}

/** Each shown account's queue's next slots: the free ones in the range, and the posts standing in slots. */
async function loadSlots(range, shownAccounts) {
  const shown = new Map(shownAccounts.map((a) => [a.id, a]));
  const queues = (await loadAll('/v1/queues')).filter((q) => shown.has(q.socialAccountId));
  const previews = await Promise.all(queues.map((q) => api(`/v1/queues/${q.id}/slots${query({ count: SLOT_PREVIEW })}`).then((r) => r.data.map((slot) => ({ ...slot, queue: q })))));
  const slots = previews.flat();
  const free = slots
    .filter((s) => !s.postIds.length && s.withinSchedulingWindow && new Date(s.at) >= range.start && new Date(s.at) < range.end)
    .map((s) => ({ kind: 'slot', key: `${s.queue.id}:${s.at}`, at: new Date(s.at), account: shown.get(s.queue.socialAccountId), queue: s.queue }));
  return { free, queuedIds: new Set(slots.flatMap((s) => s.postIds)) };
}

/** The recurring posts going to a shown account. */
async function loadRecurrences(shownAccounts) {
  const shown = new Set(shownAccounts.map((a) => a.id));
  return (await loadAll('/v1/recurrences')).filter((r) => (r.accounts ?? []).some((id) => shown.has(id)));
}

/**
 * useLoad (ui.js) for a view that changes faster than it loads: an answer that comes back after a
 * newer load started is dropped, so quick clicks on → end on the range last asked for, never on a
 * slower earlier one.
 */
function useLatestLoad(load, deps) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const latest = useRef(0);
  const reload = useCallback(() => {
    const call = ++latest.current;
    const settle = (next) => { if (call === latest.current) setState(next); };
    setState((s) => ({ ...s, loading: true }));
    return load().then((data) => settle({ data, error: null, loading: false }), (error) => settle({ data: null, error, loading: false }));
  }, deps);
  useEffect(() => { reload(); }, [reload]);
  return { ...state, reload };
}

async function loadCalendar(range, filters, accounts) {
  const shown = accountsIn(accounts, filters);
  const [posts, slots, recurrences] = await Promise.all([loadPosts(range, filters), loadSlots(range, shown), loadRecurrences(shown)]);
  const items = posts.filter((p) => p.scheduledAt).map((post) => ({
    kind: 'post', key: post.id, at: new Date(post.scheduledAt), post, queued: slots.queuedIds.has(post.id), recurring: !!post.recurrenceId, evergreen: !!post.evergreenCollectionId,
  }));
  // A status filter asks about posts: neither a free slot nor a projection has a status.
  if (!filters.status) items.push(...slots.free, ...recurrences.flatMap((r) => projectedOccurrences(r, range)));
  return { items: items.sort((a, b) => a.at - b.at), truncated: posts.length >= MAX_POSTS };
}

// ——— Cards ———

const excerpt = (text, words = 12) => {
  const all = text.trim().split(/\s+/);
  return all.length > words ? `${all.slice(0, words).join(' ')}…` : text.trim();
};
const postText = (post) => post.containers[0]?.content || '(media only)';
const statusesOf = (post) => [...new Set(post.socialAccounts.map((d) => d.status))];
const movable = (post) => post.socialAccounts.length > 0 && post.socialAccounts.every((d) => MOVABLE.has(d.status));
const accountsOfRecurrence = (recurrence, accounts) => (recurrence.accounts ?? []).map((id) => accounts.find((a) => a.id === id)).filter(Boolean);

function Icons({ networks }) {
  return html`<span class="cal-icons">${[...new Set(networks)].map((n) => html`<${NetworkIcon} network=${n} />`)}</span>`;
}

/** The keyboard's way to move a post: a local date and time, then PATCH. */
function MoveForm({ item, onMove, onClose }) {
  const [value, setValue] = useState(localInput(item.at));
  const input = useRef(null);
  // Opened from its button: the keyboard goes on in the time's field.
  useEffect(() => input.current?.focus(), []);
  const submit = (event) => {
    event.preventDefault();
    if (value) onMove(item, new Date(value));
    onClose();
  };
  const label = `New time for "${excerpt(postText(item.post), 6)}"`;
  return html`<form class="cal-move" onSubmit=${submit} aria-label=${label}>
    <label>New time<input ref=${input} type="datetime-local" required value=${value} onInput=${(e) => setValue(e.target.value)} /></label>
    <span class="actions"><button type="submit" class="small">Move</button><button type="button" class="secondary small" onClick=${onClose}>Cancel</button></span>
  </form>`;
}

function PostCard({ item, drag, onMove }) {
  const [moving, setMoving] = useState(false);
  const { post } = item;
  const canMove = movable(post);
  const statuses = statusesOf(post);
  const text = postText(post);
  return html`<article class=${`cal-card cal-post cal-edge-${statuses[0]}${post.isDraft ? ' cal-draft' : ''}${drag.dragging === post.id ? ' cal-dragging' : ''}`}
      data-post-id=${post.id} draggable=${canMove && !moving ? 'true' : undefined}
      onDragStart=${canMove ? (e) => drag.start(e, item) : undefined} onDragEnd=${drag.end}>
    <p class="cal-card-head"><time datetime=${item.at.toISOString()}>${timeOf(item.at)}</time> <${Icons} networks=${post.socialAccounts.map((d) => d.network)} /></p>
    <a class="cal-text" href=${`#/posts/${post.id}`} title=${text}>${excerpt(text)}</a>
    <p class="cal-tags">${statuses.map((s) => html`<${Status} status=${s} />`)}
      ${post.isDraft ? html`<span class="cal-tag">draft</span>` : null}
      ${item.queued ? html`<span class="cal-tag" title="Standing in a slot of the account's queue">queue slot</span>` : null}
      ${item.recurring ? html`<span class="cal-tag" title="An occurrence of a recurring post">recurring</span>` : null}
      ${item.evergreen ? html`<span class="cal-tag" title="Re-shared from an evergreen collection">evergreen</span>` : null}
      ${canMove && !moving ? html`<button type="button" class="secondary small cal-move-button" onClick=${() => setMoving(true)} aria-label=${`Move "${excerpt(text, 6)}"…`}>Move…</button>` : null}
    </p>
    ${moving ? html`<${MoveForm} item=${item} onMove=${onMove} onClose=${() => setMoving(false)} />` : null}
  </article>`;
}

/** A queue's free slot: an empty place; a post dropped on it takes the slot's exact time. */
function SlotCard({ item, drag, compact }) {
  const who = `@${item.account.username.replace(/^@/, '')}`;
  const title = `A free slot of ${who}'s queue (${networkName(item.account.network)}): compose a post for it`;
  const compose = `#/compose?${new URLSearchParams({ account: item.account.id, at: item.at.toISOString() })}`;
  const time = html`<time datetime=${item.at.toISOString()}>${timeOf(item.at)}</time>`;
  return html`<div class=${`cal-card cal-slot${compact ? ' cal-compact' : ''}${drag.over === item.key ? ' cal-over' : ''}`} data-slot-at=${item.at.toISOString()} data-account-id=${item.account.id}
      onDragOver=${(e) => drag.allow(e, item.key)} onDragLeave=${() => drag.leave(item.key)} onDrop=${(e) => drag.drop(e, () => item.at)}>
    ${compact
      ? html`<a class="cal-text" href=${compose} title=${title}>${time} <span aria-hidden="true">○</span> free slot<span class="visually-hidden"> · ${who}</span></a> <${NetworkIcon} network=${item.account.network} />`
      : html`<p class="cal-card-head">${time} <${NetworkIcon} network=${item.account.network} /></p>
        <a class="cal-text" href=${compose} title=${title}><span aria-hidden="true">○</span> Free slot · ${who}</a>`}
  </div>`;
}

/** An occurrence an active recurrence has not created yet: shown, not movable, not a post yet. */
function ProjectedCard({ item, accounts }) {
  const who = accountsOfRecurrence(item.recurrence, accounts);
  return html`<div class="cal-card cal-projected" data-recurrence-id=${item.recurrence.id} title="Not created yet: the recurring post creates it ahead of its time">
    <p class="cal-card-head"><time datetime=${item.at.toISOString()}>${timeOf(item.at)}</time> <${Icons} networks=${who.map((a) => a.network)} /></p>
    <p class="cal-text">${excerpt(item.text) || '(media only)'}</p>
    <p class="cal-tags"><span class="cal-tag cal-tag-projected"><span aria-hidden="true">◌</span> projected</span> <span class="cal-tag">recurring</span></p>
  </div>`;
}

function Item({ item, drag, onMove, accounts, compact = false }) {
  if (item.kind === 'post') return html`<${PostCard} item=${item} drag=${drag} onMove=${onMove} />`;
  if (item.kind === 'slot') return html`<${SlotCard} item=${item} drag=${drag} compact=${compact} />`;
  return html`<${ProjectedCard} item=${item} accounts=${accounts} />`;
}

// ——— Grids ———

/** A place a card can be dropped on: `timeFor(item)` is where the dragged post would go. */
function dropProps(drag, key, timeFor) {
  return {
    onDragOver: (e) => drag.allow(e, key),
    onDragLeave: () => drag.leave(key),
    onDrop: (e) => drag.drop(e, timeFor),
  };
}

function hoursShown(items) {
  const hours = items.map((i) => i.at.getHours());
  return { first: Math.min(FIRST_HOUR, ...hours), last: Math.max(LAST_HOUR, ...hours) };
}

/** An hour of a day in the week: a post dropped here keeps its minutes. */
function HourCell({ day, hour, row, column, items, shared }) {
  const { drag } = shared;
  const key = `${dayKey(day)}T${hour}`;
  const past = new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour + 1) <= new Date();
  return html`<div class=${`cal-cell${items.length ? '' : ' cal-empty'}${past ? ' cal-past' : ''}${drag.over === key ? ' cal-over' : ''}`}
      style=${{ gridColumn: column + 2, gridRow: row + 2 }} data-day=${dayKey(day)} data-hour=${hour}
      ...${dropProps(drag, key, (item) => new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour, item.at.getMinutes()))}>
    <span class="cal-cell-label">${pad(hour)}:00</span>
    ${items.map((item) => html`<${Item} key=${item.key} item=${item} ...${shared} />`)}
  </div>`;
}

/**
 * A day of the week: its heading and its hours. On a wide screen the day's box dissolves
 * (display: contents) and its cells take their column and row in the week's grid; on a phone the
 * days stack.
 */
function WeekDay({ day, column, hours, items, shared }) {
  const key = dayKey(day);
  return html`<section class=${`cal-day${key === dayKey(new Date()) ? ' cal-today' : ''}${items.length ? '' : ' cal-empty'}`} aria-label=${longDay(day)}>
    <h3 class="cal-day-head" style=${{ gridColumn: column + 2 }} title=${longDay(day)}>${dayHead(day)}</h3>
    ${hours.map((hour, row) => html`<${HourCell} day=${day} hour=${hour} row=${row} column=${column} items=${items.filter((i) => i.at.getHours() === hour)} shared=${shared} />`)}
  </section>`;
}

function WeekGrid({ range, items, shared }) {
  const { first, last } = hoursShown(items);
  const hours = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  return html`<div class="cal-week" data-start=${range.start.toISOString()} data-end=${range.end.toISOString()}>
    ${hours.map((hour, row) => html`<div class="cal-hour" aria-hidden="true" style=${{ gridRow: row + 2 }}>${pad(hour)}:00</div>`)}
    ${daysOf(range).map((day, column) => html`<${WeekDay} day=${day} column=${column} hours=${hours} items=${items.filter((i) => dayKey(i.at) === dayKey(day))} shared=${shared} />`)}
  </div>`;
}

/** A day of the month: a post dropped here keeps its time of day. */
function MonthDay({ day, month, items, shared }) {
  const { drag } = shared;
  const key = dayKey(day);
  const outside = day.getMonth() !== month;
  const classes = ['cal-mday', key === dayKey(new Date()) && 'cal-today', outside && 'cal-outside', !items.length && 'cal-empty',
    addDays(day, 1) <= new Date() && 'cal-past', drag.over === key && 'cal-over'].filter(Boolean).join(' ');
  const monthName = day.getDate() === 1 || outside ? ` ${day.toLocaleDateString(undefined, { month: 'short' })}` : '';
  return html`<section class=${classes} aria-label=${longDay(day)} data-day=${key}
      ...${dropProps(drag, key, (item) => new Date(day.getFullYear(), day.getMonth(), day.getDate(), item.at.getHours(), item.at.getMinutes()))}>
    <h3 class="cal-mday-head"><span class="cal-weekday-name">${WEEKDAYS[(day.getDay() + 6) % 7]} </span>${day.getDate()}${monthName}</h3>
    ${items.map((item) => html`<${Item} key=${item.key} item=${item} ...${shared} compact=${true} />`)}
  </section>`;
}

function MonthGrid({ range, items, shared }) {
  return html`<div class="cal-month" data-start=${range.start.toISOString()} data-end=${range.end.toISOString()}>
    ${WEEKDAYS.map((name) => html`<div class="cal-weekday" aria-hidden="true">${name.slice(0, 3)}</div>`)}
    ${daysOf(range).map((day) => html`<${MonthDay} day=${day} month=${range.month} items=${items.filter((i) => dayKey(i.at) === dayKey(day))} shared=${shared} />`)}
  </div>`;
}

// ——— Moving ———

/** A refusal of the page's own, shown like the API's: a move into the past would publish at once. */
function pastRefusal(at) {
  return { message: `Not moved: ${when(at)} has passed, and a post moved to a past time publishes at once. Pick a time to come.`, details: [] };
}

/**
 * Drag state and the move itself: while the PATCH runs, the card stands at its new place; when the
 * API refuses, it goes back and the refusal is shown.
 */
function useMoves(reload) {
  const [dragged, setDragged] = useState(null);
  const [over, setOver] = useState(null);
  const [pending, setPending] = useState(null);
  const [outcome, setOutcome] = useState(null);
  const move = async (item, at) => {
    if (at.getTime() === item.at.getTime()) return;
    const text = excerpt(postText(item.post), 6);
    if (at <= new Date()) { setOutcome({ error: pastRefusal(at) }); return; }
    setPending({ id: item.post.id, at });
    setOutcome(null);
    try {
      await api(`/v1/posts/${item.post.id}`, { method: 'PATCH', body: { scheduledAt: at.toISOString() } });
      await reload();
      setOutcome({ moved: `Moved "${text}" to ${when(at)}.` });
    } catch (error) {
      // The API's reason and its per-field details, said of this card, which stays where it was.
      setOutcome({ error: { message: `Not moved: "${text}" stays at ${when(item.at)}. ${error.message.replace(/\.$/, '')}.`, details: error.details } });
    } finally {
      setPending(null);
    }
  };
  const drag = {
    dragging: dragged?.post.id,
    over: dragged ? over : undefined,
    start: (event, item) => {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', item.post.id);
      setDragged(item);
    },
    end: () => { setDragged(null); setOver(null); },
    allow: (event, key) => {
      if (!dragged) return;
      event.preventDefault();
      event.stopPropagation();
      if (over !== key) setOver(key);
    },
    leave: (key) => { if (over === key) setOver(null); },
    /** `timeFor(item)`: where the place dropped on puts the dragged post. */
    drop: (event, timeFor) => {
      if (!dragged) return;
      event.preventDefault();
      event.stopPropagation();
      const item = dragged;
      setDragged(null);
      setOver(null);
      move(item, timeFor(item));
    },
  };
  return { drag, move, pending, outcome };
}

/** The items as shown: the post being moved stands at its new time until the API answers. */
const withPending = (items, pending) => (pending ? items.map((i) => (i.kind === 'post' && i.post.id === pending.id ? { ...i, at: pending.at } : i)) : items);

function Outcome({ outcome }) {
  if (!outcome) return null;
  if (outcome.moved) return html`<p class="notice" role="status">${outcome.moved}</p>`;
  return html`<${ErrorBox} error=${outcome.error} />`;
}

// ——— The page ———

function Filters({ accounts, filters, onChange }) {
  const tenants = [...new Set(accounts.map((a) => a.tenantId).filter(Boolean))].sort();
  const set = (name) => (event) => onChange({ ...filters, [name]: event.target.value });
  return html`<form class="cal-filters" aria-label="Calendar filters" onSubmit=${(e) => e.preventDefault()}>
    <label>Account<select name="account" value=${filters.accountId} onChange=${set('accountId')}>
      <option value="">All accounts</option>
      ${accounts.map((a) => html`<option value=${a.id}>${networkName(a.network)} @${a.username.replace(/^@/, '')}</option>`)}
    </select></label>
    <label>Tenant<select name="tenant" value=${filters.tenantId} onChange=${set('tenantId')} disabled=${!tenants.length}>
      <option value="">${tenants.length ? 'All tenants' : 'No tenants'}</option>
      ${tenants.map((t) => html`<option value=${t}>${t}</option>`)}
    </select></label>
    <label>Status<select name="status" value=${filters.status} onChange=${set('status')}>
      ${STATUS_CHOICES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
    </select></label>
  </form>`;
}

function Toolbar({ view, range, onView, onStep, onToday }) {
  const unit = view === 'week' ? 'week' : 'month';
  return html`<div class="cal-toolbar">
    <div class="actions" role="group" aria-label="View">
      ${['week', 'month'].map((v) => html`<button type="button" class=${view === v ? '' : 'secondary'} aria-pressed=${view === v} onClick=${() => onView(v)}>${v === 'week' ? 'Week' : 'Month'}</button>`)}
    </div>
    <div class="actions cal-steps">
      <button type="button" class="secondary" onClick=${() => onStep(-1)} aria-label=${`Previous ${unit}`}>←</button>
      <button type="button" class="secondary" onClick=${onToday}>Today</button>
      <button type="button" class="secondary" onClick=${() => onStep(1)} aria-label=${`Next ${unit}`}>→</button>
    </div>
    <h2 class="cal-title" aria-live="polite">${range.title}</h2>
  </div>`;
}

function Legend() {
  return html`<ul class="cal-legend muted" aria-label="How to read the calendar">
    <li><span class="cal-swatch cal-swatch-post" aria-hidden="true"></span> A post: drag it to another hour or day, or use Move…, until it goes out</li>
    <li><span class="cal-swatch cal-swatch-slot" aria-hidden="true"></span> A queue's free slot: drop a post on it, or click it to compose one for it</li>
    <li><span class="cal-swatch cal-swatch-projected" aria-hidden="true"></span> Projected: a recurring post's occurrence, not created yet</li>
    <li>Times in your zone, ${Intl.DateTimeFormat().resolvedOptions().timeZone}</li>
  </ul>`;
}

export function CalendarPage() {
  const [view, setView] = useState('week');
  const [anchor, setAnchor] = useState(() => startOfDay(new Date()));
  const [filters, setFilters] = useState({ accountId: '', tenantId: '', status: '' });
  const range = rangeOf(view, anchor);
  const accounts = useLoad(() => loadAll('/v1/social-accounts'));
  const calendar = useLatestLoad(() => (accounts.data ? loadCalendar(range, filters, accounts.data) : Promise.resolve(null)),
    [accounts.data, view, range.start.getTime(), filters.accountId, filters.tenantId, filters.status]);
  const { drag, move, pending, outcome } = useMoves(calendar.reload);
  const items = withPending(calendar.data?.items ?? [], pending);
  const Grid = view === 'week' ? WeekGrid : MonthGrid;
  return html`<section class="calendar">
    <div class="page-head"><h1>Calendar</h1><p class="actions"><a class="button" href="#/compose">New post</a></p></div>
    <${Filters} accounts=${accounts.data ?? []} filters=${filters} onChange=${setFilters} />
    <${Toolbar} view=${view} range=${range} onView=${setView} onStep=${(step) => setAnchor(stepped(view, anchor, step))} onToday=${() => setAnchor(startOfDay(new Date()))} />
    <${Legend} />
    <${ErrorBox} error=${accounts.error ?? calendar.error} />
    <div aria-live="polite"><${Outcome} outcome=${outcome} /></div>
    ${calendar.data?.truncated ? html`<p class="muted">Only the first ${MAX_POSTS} posts of this ${view} are shown: pick an account or a status to see the others.</p>` : null}
    ${calendar.data && !calendar.data.items.length ? html`<p class="muted cal-nothing">Nothing scheduled for ${range.title}. <a href="#/compose">Schedule a post.</a></p>` : null}
    <div class="cal-scroll" aria-busy=${accounts.loading || calendar.loading || !!pending}>
      <${Grid} range=${range} items=${items} shared=${{ drag, onMove: move, accounts: accounts.data ?? [] }} />
    </div>
  </section>`;
}
