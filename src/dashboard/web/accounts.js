// Accounts and apps: the organization's accounts with their state (reconnect, remove), connecting one
// through the network's OAuth (and back here, picking pages when the login grants several), with the
// credentials a network takes instead (an app password, a bot token: the fields its connect body
// declares), and the network apps (bring your own keys) with the callback URL to paste into the
// network's console.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, apiDescription } from './api.js';
import { AccountLabel, CopyButton, confirmed, ErrorBox, FieldErrors, NetworkIcon, formatDate, networkName, useAction, useLoad } from './ui.js';

const PASSWORD_PATH = /^\/v1\/social-accounts\/([a-z_]+)$/;

/**
 * What the API's description says about networks: their ids, which connect with credentials instead
 * of OAuth (and the fields of that body, tenantId aside), the public URL.
 */
async function networkFacts() {
  const description = await apiDescription();
  const body = description.paths['/v1/posts'].post.requestBody.content['application/json'].schema;
  const networks = Object.entries(body.properties).filter(([, s]) => s.type === 'object' && s.properties).map(([id]) => id);
  const passwordNetworks = Object.keys(description.paths).map((p) => p.match(PASSWORD_PATH)?.[1]).filter((id) => id && description.paths[`/v1/social-accounts/${id}`].post);
  const credentialFields = Object.fromEntries(passwordNetworks.map((id) => {
    const schema = description.paths[`/v1/social-accounts/${id}`].post.requestBody.content['application/json'].schema;
    const required = new Set(schema.required ?? []);
    return [id, Object.entries(schema.properties).filter(([name]) => name !== 'tenantId').map(([name, field]) => ({ name, description: field.description, secret: field.writeOnly === true, required: required.has(name) }))];
  }));
  // Networks whose connect names the server the account lives on (auth-url's `instance_url`): no app to register.
  const authUrlBody = description.paths['/v1/social-networks/{network}/auth-url']?.post.requestBody?.content['application/json'].schema;
  const instanceNetworks = authUrlBody?.properties?.instance_url?.['x-networks'] ?? [];
  return { networks, passwordNetworks, credentialFields, instanceNetworks, publicBaseUrl: description.servers?.[0]?.url ?? location.origin };
}

/** `appPassword` → "App password", `botToken` → "Bot token". */
const fieldLabel = (name) => name.replace(/([a-z])([A-Z])/g, (_, a, b) => `${a} ${b.toLowerCase()}`).replace(/^./, (c) => c.toUpperCase());

/** Where the network sends the browser back to: this page, which reads ?session=, ?account_id= or ?error=. */
const returnUrl = () => `${location.origin}${location.pathname}#/accounts`;

async function startConnect(network, instanceUrl) {
  const body = { redirect_uri: returnUrl(), ...(instanceUrl !== undefined ? { instance_url: instanceUrl } : {}) };
  const { data } = await api(`/v1/social-networks/${network}/auth-url`, { method: 'POST', body });
  location.assign(data.auth_url);
}

/** The answer of the OAuth round trip, read once from the address and then removed from it. */
function useConnectResult() {
  const [result] = useState(() => Object.fromEntries(new URLSearchParams(location.search)));
  useEffect(() => { if (location.search) history.replaceState(null, '', `${location.pathname}${location.hash}`); }, []);
  return result;
}

function PagePick({ token, onDone }) {
  const pending = useLoad(() => api(`/v1/social-accounts/pending/${token}`).then((r) => r.data), [token]);
  const [picked, setPicked] = useState([]);
  const action = useAction();
  const finalize = (e) => {
    e.preventDefault();
    action.run(() => api(`/v1/social-accounts/pending/${token}/finalize`, { method: 'POST', body: { selectedPageIds: picked } })).then((r) => r && onDone(r.connectedAccounts));
  };
  if (pending.error) return html`<${ErrorBox} error=${pending.error} />`;
  if (!pending.data) return html`<p aria-busy="true">Loading the pages this login grants…</p>`;
  return html`<form class="card" onSubmit=${finalize} aria-label="Pick what to connect">
    <h2><${NetworkIcon} network=${pending.data.network} /> Pick what to connect</h2>
    <p class="muted">This login grants several; connect the ones Crier should publish to (before ${formatDate(pending.data.expiresAt)}).</p>
    ${pending.data.availablePages.map((page) => html`<label class="check">
      <input type="checkbox" name="page" value=${page.id} checked=${picked.includes(page.id)} onChange=${() => setPicked(picked.includes(page.id) ? picked.filter((p) => p !== page.id) : [...picked, page.id])} />
      ${page.name} ${page.username ? html`<span class="muted">@${page.username}</span>` : null} <span class="muted">(${page.type})</span>
    </label>`)}
    <${ErrorBox} error=${action.error} />
    <button type="submit" disabled=${!picked.length || action.running}>Connect ${picked.length || ''}</button>
  </form>`;
}

function PasswordConnect({ network, fields, onConnected }) {
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f.name, ''])));
  const action = useAction();
  const secret = fields.find((f) => f.secret);
  const kind = secret ? fieldLabel(secret.name).toLowerCase() : 'credentials';
  const submit = (e) => {
    e.preventDefault();
    // An optional field left empty is left out (a network connected one of two ways says which it takes).
    const body = Object.fromEntries(Object.entries(values).filter(([name, value]) => value !== '' || fields.find((f) => f.name === name)?.required));
    action.run(() => api(`/v1/social-accounts/${network}`, { method: 'POST', body })).then((r) => {
      if (!r) return;
      setValues(Object.fromEntries(fields.map((f) => [f.name, f.secret ? '' : values[f.name]])));
      onConnected(r.data);
    });
  };
  return html`<form class="card inline" onSubmit=${submit} aria-label=${`Connect ${networkName(network)} with ${kind === 'app password' ? 'an' : 'a'} ${kind}`}>
    <h3><${NetworkIcon} network=${network} /> ${networkName(network)}: ${kind}</h3>
    ${fields.map((f) => html`<label title=${f.description ?? ''}>${fieldLabel(f.name)}<input name=${f.name} type=${f.secret ? 'password' : 'text'} autocomplete="off" required=${f.required}
      value=${values[f.name]} onInput=${(e) => setValues({ ...values, [f.name]: e.target.value })} /></label>
      <${FieldErrors} details=${action.error?.details} field=${f.name} />`)}
    <button type="submit" disabled=${action.running}>Connect</button>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

/** Active, or disconnected with why and when (the error that disconnected it, from the API). */
function AccountState({ account }) {
  if (account.isActive) return html`<span class="status status-published"><span aria-hidden="true">✓</span> active</span>`;
  return html`<span class="status status-failed"><span aria-hidden="true">✗</span> disconnected</span>
    <div class="reason">${account.disconnectedReason ? `Why: ${account.disconnectedReason}` : 'Why: not recorded (disconnected before Crier kept the reason)'}</div>
    ${account.disconnectedAt ? html`<div class="muted">since ${formatDate(account.disconnectedAt)}; reconnect it to publish again</div>` : html`<div class="muted">reconnect it to publish again</div>`}`;
}

function AccountRow({ account, onChanged, instanceNetworks }) {
  const action = useAction();
  // An account on a server of its own (user@server) reconnects there, the address asked with its server as the default.
  const reconnect = () => (instanceNetworks?.includes(account.network)
    ? (() => { const at = prompt('The address of the account\'s server', account.username.split('@')[1] ?? ''); return at ? startConnect(account.network, at) : undefined; })()
    : startConnect(account.network));
  const remove = () => action.run(() => api(`/v1/social-accounts/${account.id}`, { method: 'DELETE' })).then((r) => r && onChanged());
  return html`<tr class="account-row">
    <td><${AccountLabel} account=${account} /></td>
    <td data-label="Name">${account.nickname}${account.tenantId ? html` <span class="muted">tenant ${account.tenantId}</span>` : null}</td>
    <td data-label="State"><${AccountState} account=${account} /></td>
    <td class="actions">
      <button type="button" class="secondary" disabled=${action.running} onClick=${() => action.run(reconnect)}>Reconnect</button>
      <button type="button" class="danger" disabled=${action.running} onClick=${confirmed(`Remove @${account.username} from Crier?`, remove)} aria-label=${`Remove @${account.username}`}>Remove</button>
      <${ErrorBox} error=${action.error} />
    </td>
  </tr>`;
}

function Apps({ facts, apps, onChanged }) {
  const [values, setValues] = useState({ network: '', client_key: '', client_secret: '' });
  const action = useAction();
  const oauthNetworks = facts.networks.filter((n) => !facts.passwordNetworks.includes(n));
  const callback = values.network ? `${facts.publicBaseUrl}/oauth/callback/${values.network}` : '';
  const register = (e) => {
    e.preventDefault();
    action.run(() => api('/v1/social-networks', { method: 'POST', body: values })).then((r) => { if (r) { setValues({ network: '', client_key: '', client_secret: '' }); onChanged(); } });
  };
  const remove = (id) => action.run(() => api(`/v1/social-networks/${id}`, { method: 'DELETE' })).then((r) => r && onChanged());
  return html`<section>
    <h2>Network apps</h2>
    <ul class="cards">${apps.map((app) => html`<li class="card inline"><${NetworkIcon} network=${app.network} /> ${networkName(app.network)} <code>${app.client_key}</code> <span class="muted">registered ${formatDate(app.createdAt)}</span>
      <button type="button" class="danger" onClick=${confirmed(`Remove the ${networkName(app.network)} app? Its accounts can no longer refresh their tokens.`, () => remove(app.id))} aria-label=${`Remove the ${networkName(app.network)} app`}>Remove</button></li>`)}</ul>
    <form class="card" onSubmit=${register} aria-label="Register a network app">
      <h3>Register an app (your own keys)</h3>
      <label>Network<select name="network" required value=${values.network} onChange=${(e) => setValues({ ...values, network: e.target.value })}>
        <option value="">Choose</option>${oauthNetworks.map((n) => html`<option value=${n}>${networkName(n)}</option>`)}
      </select></label>
      ${callback ? html`<p>Callback URL to paste into the network's console: <code data-testid="callback-url">${callback}</code> <${CopyButton} text=${callback} label="Copy the callback URL" /></p>` : null}
      <label>Client key<input name="client_key" required value=${values.client_key} onInput=${(e) => setValues({ ...values, client_key: e.target.value })} /></label>
      <label>Client secret<input name="client_secret" type="password" autocomplete="off" required value=${values.client_secret} onInput=${(e) => setValues({ ...values, client_secret: e.target.value })} /></label>
      <${ErrorBox} error=${action.error} />
      <button type="submit" disabled=${action.running}>Register</button>
    </form>
  </section>`;
}

export function AccountsPage() {
  const result = useConnectResult();
  // A login that granted one account comes back connected (account_id), its session only for the
  // hosted API's clients: there is nothing to pick.
  const [session, setSession] = useState(result.account_id ? null : result.session ?? null);
  const [notice, setNotice] = useState(result.account_id ? 'The account is connected.' : null);
  const accounts = useLoad(() => api('/v1/social-accounts?limit=100').then((r) => r.data));
  const apps = useLoad(() => api('/v1/social-networks').then((r) => r.data));
  const facts = useLoad(networkFacts);
  const [network, setNetwork] = useState('');
  const [instanceUrl, setInstanceUrl] = useState('');
  const connect = useAction();
  const instanceNetworks = facts.data?.instanceNetworks ?? [];
  const needsInstance = instanceNetworks.includes(network);
  const connectable = [...new Set([...(apps.data ?? []).map((a) => a.network), ...instanceNetworks])];
  const connected = (list) => { setSession(null); setNotice(`Connected: ${list.map((a) => `@${a.username}`).join(', ')}.`); accounts.reload(); };
  return html`<section>
    <h1>Accounts</h1>
    ${result.error ? html`<div class="error" role="alert"><strong>The network did not connect the account: ${result.error}</strong> ${result.error_description ?? ''}</div>` : null}
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
    ${session ? html`<${PagePick} token=${session} onDone=${connected} />` : null}
    <${ErrorBox} error=${accounts.error ?? apps.error ?? facts.error} />
    <div class="table-scroll"><table>
      <caption class="visually-hidden">Connected accounts</caption>
      <thead><tr><th>Account</th><th>Name</th><th>State</th><th></th></tr></thead>
      <tbody>${(accounts.data ?? []).map((a) => html`<${AccountRow} key=${a.id} account=${a} onChanged=${accounts.reload} instanceNetworks=${instanceNetworks} />`)}</tbody>
    </table></div>
    <h2>Connect an account</h2>
    <form class="card inline" onSubmit=${(e) => { e.preventDefault(); connect.run(() => startConnect(network, needsInstance ? instanceUrl : undefined)); }} aria-label="Connect an account">
      <label>Network<select name="connect-network" required value=${network} onChange=${(e) => setNetwork(e.target.value)}>
        <option value="">Choose</option>${connectable.map((n) => html`<option value=${n}>${networkName(n)}</option>`)}
      </select></label>
      ${needsInstance ? html`<label>Server<input name="instance_url" required placeholder="its address or host name" value=${instanceUrl} onInput=${(e) => setInstanceUrl(e.target.value)} /></label>` : null}
      <button type="submit" disabled=${!network || connect.running}>Connect with the network</button>
      <${ErrorBox} error=${connect.error} />
    </form>
    ${(facts.data?.passwordNetworks ?? []).map((n) => html`<${PasswordConnect} network=${n} fields=${facts.data.credentialFields[n]} onConnected=${(a) => connected([a])} />`)}
    ${facts.data && apps.data ? html`<${Apps} facts=${facts.data} apps=${apps.data} onChanged=${apps.reload} />` : null}
  </section>`;
}
