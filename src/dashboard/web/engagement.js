// After publishing, on a post's page: the figures each network gives of it (GET /v1/posts/:id/analytics),
// its comments per destination with forms to answer the post or one comment (GET and POST
// /v1/posts/:id/replies), changing its text there (PATCH /v1/posts/:id/remote) and deleting it from
// the networks (DELETE /v1/posts/:id/remote). On a sandbox
// account, a made-up person can comment too (POST /v1/sandbox/posts/:id/comments).
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, apiDescription, query } from './api.js';
import { AccountLabel, confirmed, ErrorBox, FieldErrors, formatDate, networkName, useAction, useLoad } from './ui.js';

/** The figures every network's answer carries (null: the network does not give it), in table order. */
const FIGURES = [['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'], ['views', 'Views'], ['reach', 'Reach'], ['saves', 'Saves'], ['impressions', 'Impressions']];

const at = (account) => `@${account.username.replace(/^@/, '')}`;

/** A figure, or a dash that says who did not give it: never a 0 for a figure nobody gave. */
function Figure({ value, missing }) {
  if (value === null || value === undefined) {
    return html`<span class="figure-missing"><span aria-hidden="true">—</span> <span class="muted">${missing}</span></span>`;
  }
  return html`<span class="figure">${value.toLocaleString()}</span>`;
}

/** The network's own figures under its own names (X's url_link_clicks, Bluesky's quoteCount…). */
function OtherFigures({ figures }) {
  const entries = Object.entries(figures ?? {});
  if (!entries.length) return html`<span class="muted">none</span>`;
  return html`<ul class="other-figures">${entries.map(([name, value]) => html`<li><code>${name}</code> ${typeof value === 'object' ? JSON.stringify(value) : String(value)}</li>`)}</ul>`;
}

function Analytics({ id, version }) {
  const analytics = useLoad(() => api(`/v1/posts/${id}/analytics`), [id, version]);
  const head = html`<div class="page-head"><h2 id="analytics-heading">Analytics</h2>
    <button type="button" class="secondary" onClick=${analytics.reload} disabled=${analytics.loading} aria-label="Refresh the analytics">Refresh</button></div>`;
  if (analytics.error) return html`<section aria-labelledby="analytics-heading">${head}<${ErrorBox} error=${analytics.error} /></section>`;
  if (!analytics.data) return html`<section aria-labelledby="analytics-heading">${head}<p aria-busy="true">Loading…</p></section>`;
  const { metrics_by_account: rows, aggregated_metrics: totals } = analytics.data;
  if (!rows.length) return html`<section aria-labelledby="analytics-heading">${head}<p class="muted">The post is on no network any more: there is nothing to read figures from.</p></section>`;
  const rate = totals.average_engagement_rate;
  return html`<section aria-labelledby="analytics-heading" aria-busy=${analytics.loading}>
    ${head}
    <p class="muted">Read from each network now. A dash is a figure the network does not give, not a zero.</p>
    <div class="table-scroll"><table class="analytics">
      <caption class="visually-hidden">Figures of the post per destination, and over all of them</caption>
      <thead><tr><th scope="col">Account</th>${FIGURES.map(([, label]) => html`<th scope="col">${label}</th>`)}<th scope="col">The network's own</th></tr></thead>
      <tbody>${rows.map((row) => html`<tr class="analytics-row">
        <th scope="row" data-label="Account"><${AccountLabel} account=${row.social_account} /></th>
        ${row.metrics
          ? html`${FIGURES.map(([name, label]) => html`<td data-label=${label} data-figure=${name}><${Figure} value=${row.metrics[name]} missing=${`not given by ${networkName(row.social_account.network)}`} /></td>`)}
            <td data-label="The network's own"><${OtherFigures} figures=${row.metrics.platform_specific} /></td>`
          : html`<td colspan=${FIGURES.length + 1} class="unavailable" data-label="No figures">${row.unavailable ?? 'The network gave no figures'}</td>`}
      </tr>`)}</tbody>
      <tfoot><tr class="analytics-total">
        <th scope="row" data-label="Account">All destinations</th>
        ${FIGURES.map(([name, label]) => html`<td data-label=${label} data-figure=${name}><${Figure} value=${totals[`total_${name}`]} missing="given by none" /></td>`)}
        <td class="no-own-figures"></td>
      </tr></tfoot>
    </table></div>
    <p class="engagement-rate">Average engagement rate: ${rate === null
      ? html`<span aria-hidden="true">—</span> <span class="muted">no destination gave both its interactions and its views</span>`
      : html`<strong>${(rate * 100).toLocaleString(undefined, { maximumFractionDigits: 2 })} %</strong> <span class="muted">(likes, comments, shares and saves over views, where a network gave views)</span>`}</p>
  </section>`;
}

/** A form answering the post (no parent) or one comment; says so in its label. */
function ReplyForm({ id, destination, parent, onSent, onCancel }) {
  const [content, setContent] = useState('');
  const action = useAction();
  const [sent, setSent] = useState(false);
  const submit = (event) => {
    event.preventDefault();
    setSent(false);
    const body = { content, network: destination.network, account_username: destination.username, ...(parent ? { parent_comment_id: parent.id } : {}) };
    action.run(() => api(`/v1/posts/${id}/replies`, { method: 'POST', body })).then((r) => {
      if (!r) return;
      setContent('');
      setSent(true);
      onSent();
    });
  };
  const label = parent ? `Your answer to ${author(parent)}` : `Reply to the post as ${at(destination)}`;
  return html`<form class="reply-form" onSubmit=${submit} aria-label=${parent ? `Answer ${author(parent)}` : `Reply on ${networkName(destination.network)} as ${at(destination)}`}>
    <label>${label}<textarea name="content" rows="2" required value=${content} onInput=${(e) => { setContent(e.target.value); setSent(false); }}></textarea></label>
    <${FieldErrors} details=${action.error?.details} field="content" />
    <p class="actions">
      <button type="submit" disabled=${action.running}>${parent ? 'Send the answer' : 'Send the reply'}</button>
      ${onCancel ? html`<button type="button" class="secondary" onClick=${onCancel}>Cancel</button>` : null}
    </p>
    ${action.error && !action.error.details.length ? html`<${ErrorBox} error=${action.error} />` : null}
    ${sent && !parent ? html`<p class="notice" role="status">Sent. The replies above are read again from the network.</p>` : null}
  </form>`;
}

const author = (reply) => reply.author_name || (reply.author_username ? `@${reply.author_username.replace(/^@/, '')}` : reply.author);

function ReplyItem({ reply, id, destination, onSent }) {
  const [answering, setAnswering] = useState(false);
  const answers = reply.replies ?? [];
  const name = author(reply);
  return html`<li class="reply">
    <article aria-label=${`Comment by ${name}`}>
      <p class="reply-head">
        ${reply.author_profile_url ? html`<a class="reply-author" href=${reply.author_profile_url} target="_blank" rel="noopener">${name}</a>` : html`<strong class="reply-author">${name}</strong>`}
        ${reply.author_name && reply.author_username ? html` <span class="muted">@${reply.author_username.replace(/^@/, '')}</span>` : null}
        <span class="muted"> · <time datetime=${reply.created_at ?? undefined}>${formatDate(reply.created_at)}</time></span>
        ${typeof reply.like_count === 'number' ? html`<span class="muted"> · ${reply.like_count} ${reply.like_count === 1 ? 'like' : 'likes'}</span>` : null}
      </p>
      <p class="reply-text content">${reply.text}</p>
      ${answering
        ? html`<${ReplyForm} id=${id} destination=${destination} parent=${reply} onSent=${() => { setAnswering(false); onSent(); }} onCancel=${() => setAnswering(false)} />`
        : html`<button type="button" class="secondary small" onClick=${() => setAnswering(true)} aria-label=${`Answer ${name}: ${reply.text.slice(0, 40)}`}>Answer</button>`}
    </article>
    ${answers.length ? html`<ul class="replies nested" aria-label=${`Answers to ${name}`}>${answers.map((r) => html`<${ReplyItem} reply=${r} id=${id} destination=${destination} onSent=${onSent} />`)}</ul>` : null}
  </li>`;
}

/** The sandbox only: someone else comments on the destination, on its emulator. */
function SandboxComment({ id, destination, onSent }) {
  const [text, setText] = useState('');
  const [author, setAuthor] = useState('sandbox_fan');
  const action = useAction();
  const submit = (event) => {
    event.preventDefault();
    const body = { text, author, network: destination.network, username: destination.username };
    action.run(() => api(`/v1/sandbox/posts/${id}/comments`, { method: 'POST', body })).then((r) => {
      if (!r) return;
      setText('');
      onSent();
    });
  };
  return html`<details class="sandbox-comment">
    <summary>Sandbox: someone comments</summary>
    <form onSubmit=${submit} aria-label=${`Someone comments on ${networkName(destination.network)}`}>
      <p class="muted">A made-up person comments on the emulated network, as a follower would; it shows above once added.</p>
      <label>Who comments <input name="author" required pattern="[A-Za-z0-9_]{1,30}" value=${author} onInput=${(e) => setAuthor(e.target.value)} /></label>
      <${FieldErrors} details=${action.error?.details} field="author" />
      <label>Their comment<textarea name="text" rows="2" required value=${text} onInput=${(e) => setText(e.target.value)}></textarea></label>
      <${FieldErrors} details=${action.error?.details} field="text" />
      <p class="actions"><button type="submit" class="secondary" disabled=${action.running}>Add the comment</button></p>
      ${action.error && !action.error.details.length ? html`<${ErrorBox} error=${action.error} />` : null}
    </form>
  </details>`;
}

/** One destination's comments, read from its network (nested answers included), and the forms. */
function DestinationReplies({ id, destination, sandbox, onSent }) {
  const replies = useLoad(() => api(`/v1/posts/${id}/replies${query({ network: destination.network, username: destination.username, include_replies: true })}`).then((r) => r.data), [id, destination.network, destination.username]);
  const sent = () => { replies.reload(); onSent(); };
  const headingId = `replies-${destination.network}-${destination.username}`.replace(/[^a-zA-Z0-9_-]/g, '-');
  const unsupported = replies.error?.code === 'replies_not_supported';
  return html`<li class="card replies-destination" aria-labelledby=${headingId}>
    <div class="page-head">
      <h3 id=${headingId}><${AccountLabel} account=${destination} /></h3>
      ${unsupported ? null : html`<button type="button" class="secondary" onClick=${replies.reload} disabled=${replies.loading} aria-label=${`Refresh the replies on ${networkName(destination.network)} to ${at(destination)}`}>Refresh</button>`}
    </div>
    ${unsupported
      ? html`<p class="no-comments"><span class="label">No comments here:</span> ${replies.error.message}</p>`
      : html`
        <${ErrorBox} error=${replies.error} />
        ${replies.data === null && !replies.error ? html`<p aria-busy="true">Loading…</p>` : null}
        ${replies.data && !replies.data.length ? html`<p class="muted">No replies yet.</p>` : null}
        ${replies.data?.length ? html`<ul class="replies" aria-label=${`Replies on ${networkName(destination.network)} to ${at(destination)}`} aria-busy=${replies.loading}>
          ${replies.data.map((r) => html`<${ReplyItem} reply=${r} id=${id} destination=${destination} onSent=${sent} />`)}
        </ul>` : null}
        <${ReplyForm} id=${id} destination=${destination} onSent=${sent} />
        ${sandbox ? html`<${SandboxComment} id=${id} destination=${destination} onSent=${sent} />` : null}`}
  </li>`;
}

const OUTCOME = {
  deleted: ['✓', 'deleted'],
  not_supported: ['–', 'not supported'],
  failed: ['✗', 'failed'],
  not_published: ['•', 'not published'],
};

/** Each network's answer to an edit or a delete, per account, with its reason. */
function Outcomes({ outcomes, labels }) {
  return html`<div role="status">
    <p>What each network answered:</p>
    <ul class="destinations remote-outcomes">${outcomes.map((o) => html`<li class=${`destination remote-outcome outcome-${o.outcome}`}>
      <${AccountLabel} account=${o.social_account} /> <span class=${`status outcome outcome-${o.outcome}`}><span aria-hidden="true">${labels[o.outcome]?.[0] ?? '•'}</span> ${labels[o.outcome]?.[1] ?? o.outcome}</span>
      ${o.error ? html`<p class="reason"><span class="label">${o.outcome === 'failed' ? 'Reason:' : 'Why:'}</span> ${o.error}</p>` : null}
    </li>`)}</ul>
  </div>`;
}

const EDIT_OUTCOME = { ...OUTCOME, edited: ['✓', 'edited'], unchanged: ['–', 'unchanged'] };

/**
 * A text box per container, filled with what the post says; saving sends the changed ones. The API
 * judges the edit first for every network: a refusal (a text too long for one) is shown by field,
 * and nothing changed anywhere.
 */
function EditOnNetworks({ post, onEdited }) {
  const action = useAction();
  const [texts, setTexts] = useState(() => post.containers.map((c) => c.content));
  const [outcomes, setOutcomes] = useState(null);
  const publishing = post.socialAccounts.some((d) => d.status === 'pending' || d.status === 'publishing');
  const changed = texts.map((t, i) => (t === post.containers[i].content ? undefined : t));
  const submit = (e) => {
    e.preventDefault();
    const containers = changed.map((t) => (t === undefined ? {} : { content: t }));
    action.run(() => api(`/v1/posts/${post.id}/remote`, { method: 'PATCH', body: { containers } })).then((r) => { if (r) { setOutcomes(r.data); onEdited(); } });
  };
  return html`<section aria-labelledby="remote-edit-heading">
    <h2 id="remote-edit-heading">Edit on networks</h2>
    <p class="muted">Changes the text where the network's API can edit a post; media stay. Crier keeps the post as it was asked, and shows on each destination what its network shows since.</p>
    <form onSubmit=${submit} aria-label="Edit on networks">
      ${texts.map((text, i) => html`<label>${i === 0 ? 'Post' : `Part ${i + 1}`}<textarea name=${`container-${i}`} rows="3" value=${text} onInput=${(e) => setTexts(texts.map((t, j) => (j === i ? e.target.value : t)))} /></label>`)}
      <${FieldErrors} details=${action.error?.details} field="containers" />
      <button type="submit" disabled=${action.running || publishing || changed.every((t) => t === undefined)}>Save on networks</button>
    </form>
    <${ErrorBox} error=${action.error} />
    ${outcomes ? html`<${Outcomes} outcomes=${outcomes} labels=${EDIT_OUTCOME} />` : null}
  </section>`;
}

function DeleteFromNetworks({ post, onDeleted }) {
  const action = useAction();
  const [outcomes, setOutcomes] = useState(null);
  const publishing = post.socialAccounts.some((d) => d.status === 'pending' || d.status === 'publishing');
  const published = post.socialAccounts.some((d) => d.status === 'published');
  const run = () => action.run(() => api(`/v1/posts/${post.id}/remote`, { method: 'DELETE' })).then((r) => { if (r) { setOutcomes(r.data); onDeleted(); } });
  return html`<section aria-labelledby="remote-delete-heading">
    <h2 id="remote-delete-heading">Delete from networks</h2>
    ${published ? html`<p class="muted">Deletes the post (every container Crier published) from each network whose API allows it. Crier keeps its record.</p>
      <p><button type="button" class="danger" disabled=${action.running || publishing} onClick=${confirmed('Delete this post from every network it was published to? This cannot be undone.', run)}>Delete from networks</button></p>
      ${publishing ? html`<p class="muted">Some destinations are still publishing: wait until they finish.</p>` : null}` : null}
    ${!published && !outcomes ? html`<p class="muted">The post is on no network any more.</p>` : null}
    <${ErrorBox} error=${action.error} />
    ${outcomes ? html`<${Outcomes} outcomes=${outcomes} labels=${OUTCOME} />` : null}
  </section>`;
}

/**
 * What the post's page shows once it went out: its figures, its replies per destination, and
 * deleting it from the networks. `onChange` reloads the post (its destinations' statuses).
 */
export function Engagement({ post, onChange }) {
  // An answer sent changes the comment counts: the figures are read again.
  const [version, setVersion] = useState(0);
  const published = post.socialAccounts.filter((d) => d.status === 'published');
  const onNetworks = published.map((d) => `${d.network}:${d.username}`).join(',');
  // Which destinations are sandbox accounts (their emulator takes made-up comments). Outside the
  // sandbox its route is not in the API's description, and no account is asked for.
  const accounts = useLoad(async () => {
    const { paths } = await apiDescription();
    return paths['/v1/sandbox/posts/{id}/comments'] ? (await api('/v1/social-accounts?limit=100')).data : [];
  }, []);
  const sandboxIds = new Set((accounts.data ?? []).filter((a) => a.sandbox).map((a) => a.id));
  return html`<div class="engagement">
    ${published.length ? html`
      <${Analytics} id=${post.id} version=${`${version}|${onNetworks}`} />
      <section aria-labelledby="replies-heading">
        <h2 id="replies-heading">Replies</h2>
        <ul class="cards">${published.map((d) => html`<${DestinationReplies} key=${`${d.network}:${d.username}`} id=${post.id} destination=${d} sandbox=${sandboxIds.has(d.id)} onSent=${() => setVersion((v) => v + 1)} />`)}</ul>
      </section>
      <${EditOnNetworks} post=${post} onEdited=${onChange} />` : null}
    <${DeleteFromNetworks} post=${post} onDeleted=${onChange} />
  </div>`;
}
