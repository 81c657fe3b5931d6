// POST /v1/posts/bulk: the file's rows, each as the create body POST /v1/posts takes, so that a row is
// judged (dry run) and created (the import) by the create's own functions: one judgement.
//
// `Content-Type: application/x-ndjson` (or application/jsonl): each non-blank line is a create body.
// `Content-Type: text/csv`: RFC 4180 (quoted fields may hold commas, quotes as "" and line breaks),
// a header row naming the columns, one post per record after it:
//   accounts     account ids or exact usernames, separated by commas and/or spaces (required column)
//   content      the post's text
//   scheduledAt  an ISO 8601 date-time, or `next-free-slot`; empty: publish now
//   media        media URLs separated by white space; each file name is the URL's last path segment
//   altText      (optional) alt text of the row's media, all the same
//   isDraft, processMedia   true / false (empty: the create's default)
//   <network>.<field>       a platform block's field (`youtube.title`); the cell is read as the
//                           block's schema says the field is: a boolean, a number, or JSON for an
//                           array or object, else text
// An empty cell leaves its field out. A row is numbered from 1, the first after the header (CSV) or
// the first non-blank line (JSON lines): `row` in every answer. Refused whole (400, with details): a
// file that is not CSV (a quote left open), a header with an unknown or repeated column or without
// `accounts`, no row, more than MAX_BULK_ROWS rows. A row that cannot become a create body (a line
// that is not JSON, a record with another number of fields than the header) is that row's problem.
import { validationError, type FieldIssue } from '../core/errors.ts';
import type { TSchema } from '../validation/json-schema.ts';
import { NETWORKS } from '../networks/ids.ts';
import { networkFor } from '../networks/registry.ts';
import { unstorableInput } from '../validation/json-input.ts';

export const MAX_BULK_ROWS = 10_000;

export type BulkFormat = 'csv' | 'ndjson';

/** One row of the file: the create body it became, or why it became none (FieldIssues, as a 400's details). */
export type BulkRow = { row: number; body: unknown } | { row: number; problem: FieldIssue[] };

/** The format a Content-Type names (parameters such as charset ignored); undefined for any other. */
export function bulkFormatOf(contentType: string | undefined): BulkFormat | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/jsonl' || type === 'application/ndjson') return 'ndjson';
  return undefined;
}

/** The file's rows; a RequestError (400, details) for a file refused whole. */
export function parseBulkFile(format: BulkFormat, text: string): BulkRow[] {
  const rows = format === 'csv' ? csvRows(text) : ndjsonRows(text);
  if (rows.length === 0) throw validationError([{ field: '(body)', message: format === 'csv' ? 'has no row after the header' : 'has no line' }]);
  if (rows.length > MAX_BULK_ROWS) {
    throw validationError([{ field: '(body)', message: `has ${rows.length} rows; one import takes at most ${MAX_BULK_ROWS}` }], 'Too many rows');
  }
  return rows;
}

function ndjsonRows(text: string): BulkRow[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.map((line, i) => {
    let body: unknown;
    try {
      body = JSON.parse(line);
    } catch (error) {
      return { row: i + 1, problem: [{ field: '(row)', message: `is not JSON: ${(error as Error).message}` }] };
    }
    // What PostgreSQL cannot hold (a NUL, an unpaired surrogate, nesting too deep) is the row's problem, not a 500.
    const unstorable = unstorableInput(body);
    return unstorable.length ? { row: i + 1, problem: unstorable } : { row: i + 1, body };
  });
}

function csvRows(text: string): BulkRow[] {
  const records = parseCsv(text.startsWith('\uFEFF') ? text.slice(1) : text).filter((record) => !(record.length === 1 && record[0] === ''));
  const header = records.shift();
  if (!header) throw validationError([{ field: '(body)', message: 'is empty: a CSV file needs a header row and one row per post' }]);
  const columns = readHeader(header);
  return records.map((record, i) => {
    if (record.length !== columns.length) {
      return { row: i + 1, problem: [{ field: '(row)', message: `has ${record.length} fields; the header has ${columns.length}` }] };
    }
    return { row: i + 1, body: bodyOfRecord(columns, record) };
  });
}

/** A column: a field of the create body, or a field of a network's block. */
type Column = { kind: 'field'; name: string } | { kind: 'block'; network: string; field: string; schema: TSchema | undefined };

const FIELDS = new Set(['accounts', 'content', 'scheduledAt', 'media', 'altText', 'isDraft', 'processMedia']);

function readHeader(header: string[]): Column[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const columns = header.map((raw, i): Column => {
    const name = raw.trim();
    if (seen.has(name)) issues.push({ field: `(header)[${i}]`, message: `column "${name}" appears twice` });
    seen.add(name);
    if (FIELDS.has(name)) return { kind: 'field', name };
    const dot = name.indexOf('.');
    const network = dot > 0 ? name.slice(0, dot) : '';
    if ((NETWORKS as readonly string[]).includes(network) && dot < name.length - 1) {
      const field = name.slice(dot + 1);
      const properties = (networkFor(network as (typeof NETWORKS)[number]).options.schema as { properties?: Record<string, TSchema> }).properties;
      return { kind: 'block', network, field, schema: properties?.[field] };
    }
    issues.push({ field: `(header)[${i}]`, message: `unknown column "${name}": use ${[...FIELDS].join(', ')} or <network>.<field> (${NETWORKS.join(', ')})` });
    return { kind: 'field', name };
  });
  if (!seen.has('accounts')) issues.push({ field: '(header)', message: 'needs an "accounts" column' });
  if (issues.length) throw validationError(issues, 'The CSV header is not usable');
  return columns;
}

function bodyOfRecord(columns: Column[], record: string[]): Record<string, unknown> {
  const cells = new Map<string, string>();
  const body: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = record[i]!;
    if (cell.trim() === '') return;
    if (column.kind === 'block') {
      const block = (body[column.network] ??= {}) as Record<string, unknown>;
      block[column.field] = cellAs(column.schema, cell);
    } else cells.set(column.name, cell);
  });
  const accounts = cells.get('accounts');
  body.accounts = accounts === undefined ? [] : accounts.split(/[\s,]+/).filter((entry) => entry !== '');
  const scheduledAt = cells.get('scheduledAt');
  if (scheduledAt !== undefined) body.scheduledAt = scheduledAt.trim();
  for (const flag of ['isDraft', 'processMedia']) {
    const value = cells.get(flag);
    if (value !== undefined) body[flag] = booleanCell(value);
  }
  const content = cells.get('content');
  const media = cells.get('media')?.split(/\s+/).filter((url) => url !== '') ?? [];
  if (media.length === 0) {
    if (content !== undefined) body.content = content;
  } else {
    const altText = cells.get('altText');
    body.containers = [{
      ...(content === undefined ? {} : { content }),
      media: media.map((url) => ({ url, filename: fileNameOf(url), ...(altText === undefined ? {} : { altText }) })),
    }];
  }
  return body;
}

/** "true"/"false" (any case) as booleans; anything else as written, for the schema to refuse by name. */
function booleanCell(cell: string): unknown {
  const value = cell.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : cell;
}

/** A block field's cell as its schema types it; text when the schema has no single type or the cell does not read as one. */
function cellAs(schema: TSchema | undefined, cell: string): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (type === 'boolean') return booleanCell(cell);
  if ((type === 'integer' || type === 'number') && cell.trim() !== '' && Number.isFinite(Number(cell))) return Number(cell);
  if (type === 'array' || type === 'object') {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return cell;
    }
  }
  return cell;
}

/** The URL's last path segment, decoded (the create requires a file name with an extension); the whole URL when it has none. */
function fileNameOf(url: string): string {
  try {
    const segment = new URL(url).pathname.split('/').pop() ?? '';
    return decodeURIComponent(segment) || url;
  } catch {
    return url;
  }
}

/**
 * RFC 4180 records: fields separated by commas, records by CRLF or LF; a quoted field may hold
 * commas, line breaks and quotes written twice. A quote inside an unquoted field is kept as text;
 * a quoted field left open is a 400 naming the line it opened on.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"' && field === '') {
      const opened = line;
      let end = i + 1;
      for (;;) {
        const quote = text.indexOf('"', end);
        if (quote === -1) throw validationError([{ field: `(line ${opened})`, message: 'a quoted field is never closed' }], 'The CSV is malformed');
        field += text.slice(end, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          end = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      line += countLineBreaks(field);
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw validationError([{ field: `(line ${line})`, message: 'text follows a quoted field\'s closing quote (write a quote inside a quoted field as "")' }], 'The CSV is malformed');
      }
      continue;
    }
    if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      line += 1;
      if (char === '\r' && text[i + 1] === '\n') i += 1;
    } else field += char;
    i += 1;
  }
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records;
}

function countLineBreaks(text: string): number {
  return (text.match(/\r\n|\r|\n/g) ?? []).length;
}
