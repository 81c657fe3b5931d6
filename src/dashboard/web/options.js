// A network's option block in compose, built from its JSON schema in the API's description of
// POST /v1/posts: a select for an enum, a checkbox for a boolean, a number, comma-separated strings,
// JSON for nested values, and a choice from the account's listing when the field's description names
// one (a board). The API's `details` for a field appear under it.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { FieldErrors, NetworkIcon, networkName, useLoad } from './ui.js';

// A field whose description names a listing of the account (`GET /v1/social-accounts/:id/boards`).
const LISTING = /GET \/v1\/social-accounts\/:id\/([a-z_]+)(?=[\s,;.]|$)/;

/** A choice loaded from the account's listing (a board, say) when the field's description names one. */
function ListingSelect({ account, listing, id, name, value, onInput }) {
  const items = useLoad(() => (account ? api(`/v1/social-accounts/${account.id}/${listing}`).then((r) => r.data) : Promise.resolve([])), [account?.id, listing]);
  return html`<select id=${id} name=${name} value=${value ?? ''} onChange=${(e) => onInput(e.target.value)}>
    <option value="">${items.loading ? 'Loading…' : `Choose (${listing})`}</option>
    ${(items.data ?? []).map((item) => html`<option value=${item.id}>${item.name ?? item.id}</option>`)}
  </select>`;
}

function OptionField({ network, name, schema, required, value, account, details, onInput }) {
  const id = `${network}-${name}`;
  const field = `${network}.${name}`;
  const listing = schema.description?.match(LISTING)?.[1];
  const label = html`<label for=${id}>${name.replace(/_/g, ' ')}${required ? ' (required)' : ''}</label>`;
  let input;
  if (schema.type === 'boolean') {
    return html`<div class="option"><label class="check"><input id=${id} type="checkbox" checked=${!!value} onChange=${(e) => onInput(e.target.checked)} /> ${name.replace(/_/g, ' ')}</label><${FieldErrors} details=${details} field=${field} /></div>`;
  } else if (listing) {
    input = html`<${ListingSelect} account=${account} listing=${listing} id=${id} name=${field} value=${value} onInput=${onInput} />`;
  } else if (schema.enum) {
    input = html`<select id=${id} name=${field} value=${value ?? ''} onChange=${(e) => onInput(e.target.value)}><option value=""></option>${schema.enum.map((v) => html`<option value=${v}>${v}</option>`)}</select>`;
  } else if (schema.type === 'integer' || schema.type === 'number') {
    input = html`<input id=${id} name=${field} type="number" min=${schema.minimum} max=${schema.maximum} value=${value ?? ''} onInput=${(e) => onInput(e.target.value === '' ? '' : Number(e.target.value))} />`;
  } else if (schema.type === 'array' && schema.items?.type === 'string') {
    input = html`<input id=${id} name=${field} placeholder="comma-separated" value=${(value ?? []).join(', ')} onInput=${(e) => onInput(e.target.value.split(',').map((v) => v.trim()).filter(Boolean))} />`;
  } else if (schema.type === 'string') {
    const long = name === 'content' || name === 'description' || (schema.maxLength ?? 0) > 300;
    input = long
      ? html`<textarea id=${id} name=${field} rows="3" value=${value ?? ''} onInput=${(e) => onInput(e.target.value)}></textarea>`
      : html`<input id=${id} name=${field} value=${value ?? ''} onInput=${(e) => onInput(e.target.value)} />`;
  } else if (schema.type === 'object' || schema.type === 'array') {
    // Nested values (an event's title and dates, say) are written as JSON, as the API takes them.
    input = html`<${JsonInput} id=${id} name=${field} value=${value} onInput=${onInput} />`;
  } else {
    return null;
  }
  return html`<div class="option">${label}${input}
    ${schema.maxLength && typeof value === 'string' ? html`<p class="muted">${value.length} / ${schema.maxLength}</p>` : null}
    ${schema.description ? html`<p class="hint">${schema.description}</p>` : null}
    ${schema.type === 'object' && schema.properties ? html`<p class="hint">JSON with ${Object.keys(schema.properties).join(', ')}</p>` : null}
    <${FieldErrors} details=${details} field=${field} nested=${schema.type === 'object' || schema.type === 'array'} />
  </div>`;
}

/** A JSON value typed as text: sent once it parses, and said when it does not. */
function JsonInput({ id, name, value, onInput }) {
  const [text, setText] = useState(value === undefined || value === '' ? '' : JSON.stringify(value, null, 2));
  const [invalid, setInvalid] = useState(false);
  const change = (event) => {
    const next = event.target.value;
    setText(next);
    if (!next.trim()) { setInvalid(false); onInput(''); return; }
    try { onInput(JSON.parse(next)); setInvalid(false); } catch { setInvalid(true); onInput(''); }
  };
  return html`<textarea id=${id} name=${name} rows="3" class="json" value=${text} onInput=${change} aria-invalid=${invalid}></textarea>
    ${invalid ? html`<p class="field-errors" role="alert">Not valid JSON yet: it is left out until it is.</p>` : null}`;
}

export function NetworkBlock({ network, schema, values, account, details, onChange }) {
  return html`<details class="network-block" open=${(schema.required ?? []).length > 0 || details.some((d) => d.field.startsWith(`${network}.`))}>
    <summary><${NetworkIcon} network=${network} /> ${networkName(network)} options</summary>
    ${Object.entries(schema.properties).map(([name, fieldSchema]) => html`<${OptionField}
      network=${network} name=${name} schema=${fieldSchema} required=${(schema.required ?? []).includes(name)}
      value=${values[name]} account=${account} details=${details} onInput=${(v) => onChange({ ...values, [name]: v })} />`)}
  </details>`;
}
