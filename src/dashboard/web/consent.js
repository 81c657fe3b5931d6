// The consent page of an MCP client's OAuth sign-in (src/oauth/): GET /oauth/authorize sends the
// browser here with the client's request in the hash. The signed-in user sees who asks (the name the
// client gave itself, and the scheme and host its code goes to, which it cannot fake) and for which
// organization, then allows or denies; either answer is where the browser goes next.
import { html } from 'htm/preact';
import { api } from './api.js';
import { ErrorBox, useAction, useLoad } from './ui.js';

/** What kind of place the answer goes to, in words (the scheme and host alone say little to most people). */
const RETURN_KINDS = {
  web: 'a web site',
  loopback: 'a program on this computer',
  application: 'the application on this computer that opens this kind of link',
};

export function ConsentPage({ query }) {
  const params = Object.fromEntries(new URLSearchParams(query));
  const request = useLoad(() => api(`/v1/oauth/consent?${new URLSearchParams(params)}`).then((r) => r.data), [query]);
  const action = useAction();
  const answer = (approve) => action.run(() => api('/v1/oauth/consent', { method: 'POST', body: { ...params, approve } }))
    .then((r) => { if (r) location.assign(r.data.redirectTo); });
  const asked = request.data;
  return html`<section class="consent">
    <h1>Allow an MCP client?</h1>
    <${ErrorBox} error=${request.error} />
    ${asked ? html`<div class="card">
      <p><strong data-testid="client-name">${asked.client.name}</strong> asks to use Crier's tools for the organization <strong data-testid="organization">${asked.organization.name}</strong>.</p>
      <p>After your answer, your browser goes to <strong data-testid="return-to">${asked.returnTo}</strong> (${RETURN_KINDS[asked.returnKind] ?? asked.returnKind}). Allow only if you started this sign-in from that application.</p>
      <p class="muted">The client may then do what an API key of this organization does (list accounts, create, schedule and cancel posts...). It is listed on the API keys page as “MCP: ${asked.client.name}”; revoke it there to end its access.</p>
      <div class="actions">
        <button type="button" disabled=${action.running} onClick=${() => answer(true)}>Allow</button>
        <button type="button" class="secondary" disabled=${action.running} onClick=${() => answer(false)}>Deny</button>
      </div>
      <${ErrorBox} error=${action.error} />
    </div>` : null}
  </section>`;
}
