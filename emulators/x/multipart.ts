// multipart/form-data (RFC 7578) read as bytes. X's description says of `media`: "raw bytes in
// multipart bodies", whether or not its part names a file, and clients send it both ways
// (twitter-api-v2 sends its chunks without a filename). A platform parser turns a part without a
// filename into text, which would corrupt binary media, so the parts are read here as they came.

export interface FormPart {
  name: string;
  /** Present when the part's Content-Disposition names a file. */
  filename?: string;
  contentType?: string;
  data: Buffer;
}

const CRLF = Buffer.from('\r\n');

/** The body's parts, in order; undefined when it is not a well-formed multipart body. */
export function parseMultipart(body: Buffer, contentType: string): FormPart[] | undefined {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const next = Buffer.concat([CRLF, delimiter]);
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  const parts: FormPart[] = [];
  for (;;) {
    at += delimiter.length;
    // The close delimiter ends the body.
    if (body.subarray(at, at + 2).toString('latin1') === '--') return parts;
    const lineEnd = body.indexOf(CRLF, at);
    if (lineEnd < 0) return undefined;
    const headersEnd = body.indexOf('\r\n\r\n', lineEnd, 'latin1');
    if (headersEnd < 0) return undefined;
    const headers = headersEnd === lineEnd ? '' : body.subarray(lineEnd + 2, headersEnd).toString('utf8');
    const dataStart = headersEnd + 4;
    const end = body.indexOf(next, dataStart);
    if (end < 0) return undefined;
    const part = partOf(headers, body.subarray(dataStart, end));
    if (!part) return undefined;
    parts.push(part);
    at = end + 2;
  }
}

function partOf(headers: string, data: Buffer): FormPart | undefined {
  let name: string | undefined;
  let filename: string | undefined;
  let contentType: string | undefined;
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === 'content-type') contentType = value;
    if (header !== 'content-disposition' || !/^form-data\b/i.test(value)) continue;
    name = param(value, 'name');
    filename = param(value, 'filename');
  }
  if (name === undefined) return undefined;
  return { name, data, ...(filename !== undefined ? { filename } : {}), ...(contentType ? { contentType } : {}) };
}

function param(disposition: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(disposition);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!.trim();
}
