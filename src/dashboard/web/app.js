// The dashboard's shell: sign-in with an API key (kept in this tab's session only), the navigation and
// a hash router, so Crier serves one page and every link still works on reload.
import { html, render } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { AccountsPage } from './accounts.js';
import { api, session, whenSignedOut } from './api.js';
import { ApprovalsPage } from './approvals.js';
import { CalendarPage } from './calendar.js';
import { ComposePage } from './compose.js';
import { ConsentPage } from './consent.js';
import { ImportPage } from './import.js';
import { KeysPage } from './keys.js';
import { PostPage, PostsPage } from './posts.js';
import { QueuesPage } from './queues.js';
import { ErrorBox, useAction } from './ui.js';
import { WebhooksPage } from './webhooks.js';

const NAV = [
  ['#/posts', 'Posts'],
  ['#/compose', 'Compose'],
  ['#/calendar', 'Calendar'],
  ['#/import', 'Import'],
  ['#/approvals', 'Approvals'],
  ['#/queues', 'Queues'],
  ['#/accounts', 'Accounts'],
  ['#/webhooks', 'Webhooks'],
  ['#/keys', 'API keys'],
];

function route(hash) {
  const post = hash.match(/^#\/posts\/([^/]+)$/);
  if (post) return html`<${PostPage} id=${decodeURIComponent(post[1])} />`;
  // An MCP client's OAuth request, sent here by GET /oauth/authorize.
  if (hash.startsWith('#/consent?')) return html`<${ConsentPage} query=${hash.slice('#/consent?'.length)} />`;
  // Compose started for an account and a time (the calendar's free slots).
  if (hash.startsWith('#/compose?')) return html`<${ComposePage} key=${hash} query=${hash.slice('#/compose?'.length)} />`;
  switch (hash) {
    case '#/compose': return html`<${ComposePage} />`;
    case '#/calendar': return html`<${CalendarPage} />`;
    case '#/import': return html`<${ImportPage} />`;
    case '#/approvals': return html`<${ApprovalsPage} />`;
    case '#/queues': return html`<${QueuesPage} />`;
    case '#/accounts': return html`<${AccountsPage} />`;
    case '#/webhooks': return html`<${WebhooksPage} />`;
    case '#/keys': return html`<${KeysPage} />`;
    default: return html`<${PostsPage} />`;
  }
}

function useHash() {
  const [hash, setHash] = useState(location.hash || '#/posts');
  useEffect(() => {
    const follow = () => setHash(location.hash || '#/posts');
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return hash;
}

function SignIn({ onSignedIn }) {
  const [key, setKey] = useState('');
  const action = useAction();
  const submit = (e) => {
    e.preventDefault();
    // A call any valid key may make tells whether the key works before it is kept.
    action.run(() => api('/v1/social-accounts?limit=1', { key: key.trim() })).then((r) => { if (r) { session.signIn(key.trim()); onSignedIn(); } });
  };
  return html`<main class="sign-in">
    <h1>Crier</h1>
    <form class="card" onSubmit=${submit}>
      <label for="api-key">API key</label>
      <input id="api-key" name="api-key" type="password" autocomplete="off" required placeholder="crier_…" value=${key} onInput=${(e) => setKey(e.target.value)} />
      <p class="muted">Kept in this browser tab only, until you sign out or close it. The dashboard calls the same /v1 API your code does.</p>
      <${ErrorBox} error=${action.error} />
      <button type="submit" disabled=${action.running}>Sign in</button>
    </form>
  </main>`;
}

function Shell({ onSignOut }) {
  const hash = useHash();
  const first = useRef(true);
  // After a navigation, focus goes to the new page, where a keyboard or a screen reader continues.
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    document.getElementById('main')?.focus();
  }, [hash]);
  const current = (href) => hash === href || (href === '#/posts' && hash.startsWith('#/posts'));
  return html`<div class="shell">
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
    <header>
      <strong class="brand">Crier</strong>
      <nav aria-label="Main"><ul>${NAV.map(([href, label]) => html`<li><a href=${href} aria-current=${current(href) ? 'page' : undefined}>${label}</a></li>`)}</ul></nav>
      <button type="button" class="secondary" onClick=${onSignOut}>Sign out</button>
    </header>
    <main id="main" tabindex="-1">${route(hash)}</main>
  </div>`;
}

function App() {
  const [signedIn, setSignedIn] = useState(!!session.key());
  useEffect(() => whenSignedOut(() => { session.signOut(); setSignedIn(false); }), []);
  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  return html`<${Shell} onSignOut=${() => { session.signOut(); setSignedIn(false); }} />`;
}

// The page's own "Loading…" placeholder goes first: Preact renders next to what it did not create.
const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
