// Serves the dashboard: `/` is its page, `/dashboard/<file>` its ES modules and style, and
// `/dashboard/vendor/<file>` the two libraries it imports (Preact and htm) straight from the installed
// packages. No build step and nothing fetched from a CDN: what the npm package ships is what runs.
// `/dashboard/networks.js` is written from the network registry: each network's name as people
// write it (LinkedIn, Google Business Profile), which the API's ids do not carry.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NETWORK_LIST } from '../networks/registry.ts';

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The browser's module names (the page's import map) and the installed file each one is. */
function vendorFiles(): Map<string, string> {
  const resolve = (specifier: string) => fileURLToPath(import.meta.resolve(specifier));
  const htmDir = path.dirname(resolve('htm'));
  return new Map([
    ['preact.mjs', resolve('preact')],
    ['preact-hooks.mjs', resolve('preact/hooks')],
    // The browser builds: ES modules importing only `preact` and `htm`, which the import map names.
    ['htm.mjs', path.join(htmDir, 'htm.module.js')],
    ['htm-preact.mjs', path.join(htmDir, '..', 'preact', 'index.module.js')],
  ]);
}

/** The dashboard's own files: listed once, so a request can only ever name one of them. */
function webFiles(): Map<string, string> {
  const files = readdirSync(WEB_DIR).filter((name) => TYPES[path.extname(name)]);
  return new Map(files.map((name) => [name, path.join(WEB_DIR, name)]));
}

async function send(reply: import('fastify').FastifyReply, file: string, cache: string) {
  const body = await readFile(file);
  return reply.type(TYPES[path.extname(file)] ?? 'application/octet-stream').header('cache-control', cache).send(body);
}

/**
 * The page's inline scripts (its import map), each allowed by its SHA-256 in the policy: the one
 * script the page does not load from Crier itself. A changed import map changes its hash with it.
 */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1]!)
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

/**
 * The page holds an API key (in session storage): it runs only Crier's own scripts (no inline script
 * but the import map, nothing from another origin, no eval), connects only to its own origin and
 * PUBLIC_BASE_URL's (where upload URLs point), and is never framed (clickjacking). `style-src
 * 'self'`: the stylesheet is a file; the one style the page sets is through the CSSOM (Preact's
 * `style.cssText`), which no policy governs. The browser must also take every file for the type it
 * is served as (nosniff), and sends no Referer elsewhere.
 */
function securityHeaders(indexHtml: string, publicBaseUrl: string): Record<string, string> {
  // Upload URLs are written with PUBLIC_BASE_URL, which need not be the origin the page was opened at.
  const api = new URL(publicBaseUrl).origin;
  const policy = [
    "default-src 'none'",
    `script-src 'self' ${inlineScriptHashes(indexHtml).join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${api}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return {
    'content-security-policy': policy.join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

export function dashboardRoutes(app: FastifyInstance, publicBaseUrl: string): void {
  const web = webFiles();
  const headers = securityHeaders(readFileSync(web.get('index.html')!, 'utf8'), publicBaseUrl);
  // Every answer of the dashboard's routes, its 404s included, carries the headers.
  const page = { schema: { hide: true }, onRequest: async (_request: FastifyRequest, reply: FastifyReply) => void reply.headers(headers) };
  const vendor = vendorFiles();
  const notFound = { success: false, error: 'Not found', code: 'not_found' };
  // The page and its modules change with each release of Crier: revalidated, never cached stale.
  app.get('/', page, (_request, reply) => send(reply, web.get('index.html')!, 'no-cache'));
  const labels = `export const NETWORK_LABELS = ${JSON.stringify(Object.fromEntries(NETWORK_LIST.map((network) => [network.id, network.label])))};\n`;
  app.get('/dashboard/networks.js', page, (_request, reply) => reply.type(TYPES['.js']!).header('cache-control', 'no-cache').send(labels));
  app.get<{ Params: { file: string } }>('/dashboard/:file', page, (request, reply) => {
    const file = web.get(request.params.file);
    return file ? send(reply, file, 'no-cache') : reply.status(404).send(notFound);
  });
  app.get<{ Params: { file: string } }>('/dashboard/vendor/:file', page, (request, reply) => {
    const file = vendor.get(request.params.file);
    return file ? send(reply, file, 'public, max-age=3600') : reply.status(404).send(notFound);
  });
}
