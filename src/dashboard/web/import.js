// Import: many posts from one CSV or JSON-lines file (POST /v1/posts/bulk). The file picked (or
// dropped) is judged at once by the dry run, a verdict per row; "Import" sends the same file for real
// under one Idempotency-Key per file (a double click or a retry makes one job), then follows the job
// (GET /v1/posts/bulk/:id) with a Cancel button; the recent jobs are listed below (GET /v1/posts/bulk).
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, query, session } from './api.js';
import { ErrorBox, FieldName, confirmed, formatDate, networkName, useAction, useLoad } from './ui.js';

const POLL_MS = 1000;
const RECENT_JOBS = 10;
/** The API's file types, by the file's name: JSON lines, else CSV. */
const contentTypeOf = (file) => (/\.(jsonl|ndjson)$/i.test(file.name) || /ndjson|jsonl/.test(file.type) ? 'application/x-ndjson' : 'text/csv');
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const ENDED = new Set(['completed', 'cancelled']);
/** A fresh Idempotency-Key; getRandomValues, because randomUUID exists only on https or localhost pages. */
const newKey = () => `import-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** POSTs the file as it is (api() sends JSON); the parsed answer, or an ApiError. */
async function sendFile(file, { dryRun, key }) {
  let response;
  try {
    response = await fetch(`/v1/posts/bulk${dryRun ? '?dry_run=true' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.key()}`, 'content-type': file.contentType, ...(key ? { 'idempotency-key': key } : {}) },
      body: file.text,
    });
  } catch {
    throw new ApiError(0, null);
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** The real run: a request whose twin (same key) is still in flight is retried, and gets the same job. */
async function startImport(file) {
  for (;;) {
    try {
      return (await sendFile(file, { dryRun: false, key: file.key })).data;
    } catch (error) {
      if (error.code !== 'idempotency_in_progress') throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** A row's verdict in words: ok; refused (the create would answer a 400); or stored with a destination that would refuse it. */
function verdictOf(row) {
  if (row.ok) return { word: 'ok', symbol: '✓', tone: 'ok' };
  if (!row.accepted) return { word: 'refused', symbol: '✗', tone: 'bad' };
  return { word: 'destination refused', symbol: '⚠', tone: 'warn' };
}

function Verdict({ row }) {
  const verdict = verdictOf(row);
  return html`<span class=${`status verdict-${verdict.tone}`}><span aria-hidden="true">${verdict.symbol}</span> ${verdict.word}</span>`;
}

function RowFindings({ row }) {
  const refusedDestinations = (row.destinations ?? []).filter((d) => !d.ok);
  return html`
    ${row.accepted ? null : html`<p class="row-error"><strong>${row.error}</strong></p>`}
    ${row.details?.length ? html`<ul class="field-errors">${row.details.map((d) => html`<li><${FieldName} field=${d.field} />: ${d.message}</li>`)}</ul>` : null}
    ${refusedDestinations.length ? html`<ul class="field-errors">${refusedDestinations.map((d) => html`<li>${networkName(d.network)} @${d.username.replace(/^@/, '')}: ${d.reasons.join('; ')}</li>`)}</ul>` : null}
    ${row.scheduledAt ? html`<p class="muted">Next free slot: ${formatDate(row.scheduledAt)}</p>` : null}
    ${(row.warnings ?? []).map((w) => html`<p class="muted">${w}</p>`)}`;
}

/** Rows shown at once: a 10,000-row file's table would make the page crawl. */
const PAGE_ROWS = 50;

function Verdicts({ result }) {
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [shown, setShown] = useState(PAGE_ROWS);
  const rows = onlyProblems ? result.rows.filter((r) => !r.ok) : result.rows;
  return html`
    <label class="check"><input type="checkbox" checked=${onlyProblems} onChange=${(e) => { setOnlyProblems(e.target.checked); setShown(PAGE_ROWS); }} /> Only the rows that are not ok</label>
    <div class="table-scroll"><table class="import-verdicts">
    <caption>What the dry run says of each row (nothing is stored yet)${rows.length > shown ? ` — the first ${shown} of ${rows.length}` : ''}</caption>
    <thead><tr><th scope="col">Row</th><th scope="col">Verdict</th><th scope="col">Accounts</th><th scope="col">Why</th></tr></thead>
    <tbody>${rows.slice(0, shown).map((row) => html`<tr class="import-row" key=${row.row} data-row=${row.row}>
      <td data-label="Row">${row.row}</td>
      <td data-label="Verdict"><${Verdict} row=${row} /></td>
      <td data-label="Accounts">${(row.destinations ?? []).map((d) => `@${d.username.replace(/^@/, '')}`).join(', ') || '—'}</td>
      <td data-label="Why">${row.ok && !row.scheduledAt && !row.warnings?.length ? html`<span class="muted">—</span>` : html`<${RowFindings} row=${row} />`}</td>
    </tr>`)}</tbody>
  </table></div>
  ${rows.length > shown ? html`<p><button type="button" class="secondary" onClick=${() => setShown(shown + PAGE_ROWS)}>Show ${Math.min(PAGE_ROWS, rows.length - shown)} more rows</button></p>` : null}`;
}

function JobStatus({ status }) {
  const symbol = { queued: '◷', running: '↻', completed: '✓', cancelled: '–' }[status] ?? '•';
  return html`<span class=${`status job-${status}`}><span aria-hidden="true">${symbol}</span> ${status}</span>`;
}

/** A job's progress, polled until it ends, with Cancel while it runs; the failed rows' reasons once known. */
function JobProgress({ jobId, onChange }) {
  const [job, setJob] = useState(null);
  const heading = useRef(null);
  const loaded = job !== null;
  // A job just started (or picked in the list) takes the focus: a keyboard or screen reader user is told.
  useEffect(() => { if (loaded) heading.current?.focus(); }, [loaded]);
  const [error, setError] = useState(null);
  const cancel = useAction();
  useEffect(() => {
    let stopped = false;
    let timer;
    const poll = async () => {
      try {
        const { data } = await api(`/v1/posts/bulk/${jobId}`);
        if (stopped) return;
        setJob(data);
        setError(null);
        if (ENDED.has(data.status)) { onChange(); return; }
      } catch (failure) {
        if (!stopped) setError(failure);
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    poll();
    return () => { stopped = true; clearTimeout(timer); };
  }, [jobId]);
  const doCancel = () => cancel.run(() => api(`/v1/posts/bulk/${jobId}/cancel`, { method: 'POST' })).then((r) => { if (r) { setJob(r.data); onChange(); } });
  if (!job) return html`<div class="card import-job"><${ErrorBox} error=${error} /><p aria-busy="true">Loading the import…</p></div>`;
  const failedRows = (job.rows ?? []).filter((r) => r.status === 'failed');
  return html`<div class="card import-job" aria-labelledby="job-heading">
    <h2 id="job-heading" tabindex="-1" ref=${heading}>Import ${job.id} <${JobStatus} status=${job.status} /></h2>
    <p role="status" data-testid="job-progress">${job.processed} of ${job.total} rows done: ${job.created} created, ${job.failed} failed${job.cancelled ? `, ${job.cancelled} cancelled` : ''}.</p>
    <progress max=${job.total} value=${job.processed} aria-label="Rows done"></progress>
    ${job.status === 'cancelled' ? html`<p class="muted">Cancelled: the rows not yet done created nothing. The posts already created stay; delete them from <a href="#/posts">Posts</a>.</p>` : null}
    ${ENDED.has(job.status) ? null : html`<p class="actions"><button type="button" class="danger" disabled=${cancel.running}
        onClick=${confirmed('Cancel this import? The rows not yet done will create nothing; posts already created stay.', doCancel)}>Cancel the import</button></p>`}
    <${ErrorBox} error=${cancel.error || error} />
    ${failedRows.length ? html`<h3>Failed rows</h3><ul class="failed-rows">${failedRows.map((r) => html`<li>Row ${r.row}: ${r.error?.error}
        ${r.error?.details?.length ? html`<ul class="field-errors">${r.error.details.map((d) => html`<li><${FieldName} field=${d.field} />: ${d.message}</li>`)}</ul>` : null}</li>`)}</ul>` : null}
    ${job.created ? html`<p><a href="#/posts">See the posts</a></p>` : null}
  </div>`;
}

function RecentJobs({ jobs, current, onShow }) {
  if (jobs.error) return html`<${ErrorBox} error=${jobs.error} />`;
  if (!jobs.data) return html`<p aria-busy="true">Loading the recent imports…</p>`;
  if (!jobs.data.data.length) return html`<p class="muted">No import yet.</p>`;
  return html`<div class="table-scroll"><table class="import-jobs">
    <caption>${jobs.data.count > jobs.data.data.length ? `The ${jobs.data.data.length} latest of ${jobs.data.count} imports` : plural(jobs.data.count, 'import')}, newest first</caption>
    <thead><tr><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Rows</th><th scope="col">Outcome</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${jobs.data.data.map((job) => html`<tr class="import-job-row">
      <td data-label="Started">${formatDate(job.createdAt)}</td>
      <td data-label="Status"><${JobStatus} status=${job.status} /></td>
      <td data-label="Rows">${job.total} (${job.format === 'ndjson' ? 'JSON lines' : 'CSV'})</td>
      <td data-label="Outcome">${job.created} created, ${job.failed} failed${job.cancelled ? `, ${job.cancelled} cancelled` : ''}</td>
      <td>${job.id === current ? html`<span class="muted">shown above</span>` : html`<button type="button" class="secondary" onClick=${() => onShow(job.id)} aria-label=${`Show the import started ${formatDate(job.createdAt)}`}>Show</button>`}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

/** The file picker, which a file can also be dropped on. */
function FilePicker({ onFile, disabled }) {
  const [over, setOver] = useState(false);
  const drop = (event) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer?.files?.[0];
    if (file) onFile(file);
  };
  return html`<div class=${`drop-zone${over ? ' drop-over' : ''}`} onDragOver=${(e) => { e.preventDefault(); setOver(true); }} onDragLeave=${() => setOver(false)} onDrop=${drop}>
    <label for="import-file">CSV or JSON-lines file <span class="muted">(pick one, or drop it here; up to 10,000 rows)</span></label>
    <input id="import-file" type="file" accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson" disabled=${disabled}
      onChange=${(e) => { const file = e.target.files?.[0]; if (file) onFile(file); }} />
    <p class="hint">CSV columns: <code>accounts</code> (ids or usernames), <code>content</code>, <code>scheduledAt</code> (a date-time or <code>next-free-slot</code>), <code>media</code>, <code>altText</code>, <code>isDraft</code>, and <code>network.field</code> options. JSON lines: each line a POST /v1/posts body.</p>
  </div>`;
}

/** Why "Import N rows" counts fewer rows than the file holds. */
function outrightNote(refused) {
  const [them, are] = refused === 1 ? ['it', 'is'] : ['them', 'are'];
  return `The ${plural(refused, 'row')} refused outright (✗) ${are} sent too: the import records ${them} as failed and creates no post for ${them}.`;
}

export function ImportPage() {
  const [file, setFile] = useState(null);
  const [dryRun, setDryRun] = useState(null);
  const [jobId, setJobId] = useState(null);
  /** The key of the file last imported: its button is done. */
  const [importedKey, setImportedKey] = useState(null);
  const judging = useAction();
  const importing = useAction();
  const jobs = useLoad(() => api(`/v1/posts/bulk${query({ limit: RECENT_JOBS })}`));
  const summary = useRef(null);

  const pick = async (picked) => {
    setDryRun(null);
    importing.clear();
    // One key per file picked: every "Import" of this file is the same job.
    const chosen = { name: picked.name, contentType: contentTypeOf(picked), text: await picked.text(), key: newKey() };
    setFile(chosen);
    const result = await judging.run(() => sendFile(chosen, { dryRun: true }));
    if (result) setDryRun(result);
  };
  useEffect(() => { if (dryRun) summary.current?.focus(); }, [dryRun]);

  const doImport = () => importing.run(() => startImport(file)).then((job) => {
    if (!job) return;
    setJobId(job.id);
    setImportedKey(file.key);
    jobs.reload();
  });

  const accepted = dryRun ? dryRun.rows.filter((r) => r.accepted).length : 0;
  const destinationRefused = dryRun ? accepted - dryRun.ok : 0;
  return html`<section class="import-page">
    <h1>Import</h1>
    <p class="muted">Many posts from one file. The file is checked first, row by row, and nothing is stored until you import it.</p>
    <${FilePicker} onFile=${pick} disabled=${judging.running} />
    ${judging.running ? html`<p aria-busy="true" role="status">Checking ${file?.name}…</p>` : null}
    <${ErrorBox} error=${judging.error} />
    ${dryRun ? html`
      <div class="import-summary" tabindex="-1" ref=${summary}>
        <h2>${file.name}: ${plural(dryRun.total, 'row')}</h2>
        <p role="status" data-testid="import-summary"><strong>${dryRun.ok} ok, ${dryRun.total - dryRun.ok} refused</strong></p>
        ${destinationRefused ? html`<p class="muted">${plural(destinationRefused, 'row')} would be stored, but a destination would refuse to publish ${destinationRefused === 1 ? 'it' : 'them'}.</p>` : null}
      </div>
      <${Verdicts} result=${dryRun} />
      <p class="actions">
        <button type="button" onClick=${doImport} disabled=${accepted === 0 || importing.running || importedKey === file.key}>Import ${plural(accepted, 'row')}</button>
      </p>
      ${accepted < dryRun.total ? html`<p class="hint">${outrightNote(dryRun.total - accepted)}</p>` : null}
      <${ErrorBox} error=${importing.error} />` : null}
    ${jobId ? html`<${JobProgress} key=${jobId} jobId=${jobId} onChange=${jobs.reload} />` : null}
    <h2>Recent imports</h2>
    <${RecentJobs} jobs=${jobs} current=${jobId} onShow=${setJobId} />
  </section>`;
}
