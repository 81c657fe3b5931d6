// An approver's decision on a post waiting for approval (POST /v1/posts/:id/approve and /reject),
// used by the review page and by a post's own page. Rejecting is final, so it asks first and takes an
// optional reason; the API's refusal (another key decided first: 409, a role that may not: 403) is
// shown where the buttons were.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { ErrorBox, useAction } from './ui.js';

/** Whether any destination of the post waits for an approver. */
export const waitsForApproval = (post) => post.socialAccounts.some((d) => d.status === 'pending_approval');

/** Approve, or reject with a reason; `onDecided(post)` gets the post as the decision left it. */
export function Decision({ post, label, onDecided }) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const action = useAction();
  const decide = (path, body) => action.run(() => api(`/v1/posts/${post.id}/${path}`, { method: 'POST', ...(body ? { body } : {}) })).then((r) => r && onDecided(r.post));
  const reject = (event) => {
    event.preventDefault();
    if (confirm('Reject this post? It will never be published, and a rejected post cannot be changed.')) decide('reject', reason.trim() ? { reason: reason.trim() } : {});
  };
  return html`<div class="decision">
    ${rejecting ? html`<form class="inline" onSubmit=${reject} aria-label=${`Reject ${label}`}>
      <label>Reason (optional, sent with the post.rejected event)<input name="reason" maxlength="1000" value=${reason} onInput=${(e) => setReason(e.target.value)} /></label>
      <button type="submit" class="danger" disabled=${action.running}>Reject the post</button>
      <button type="button" class="secondary" onClick=${() => setRejecting(false)}>Back</button>
    </form>` : html`<p class="actions">
      <button type="button" disabled=${action.running} onClick=${() => decide('approve')} aria-label=${`Approve ${label}`}>Approve</button>
      <button type="button" class="danger" disabled=${action.running} onClick=${() => setRejecting(true)} aria-label=${`Reject ${label}…`}>Reject…</button>
    </p>`}
    <${ErrorBox} error=${action.error} />
  </div>`;
}
