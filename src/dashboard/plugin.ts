// Serves the dashboard: `/` is its page, `/dashboard/<file>` its ES modules and style, and
// `/dashboard/vendor/<file>` the two libraries it imports (Preact and htm) straight from the installed
// packages. No build step and nothing fetched from a CDN: what the npm package ships is what runs.
import type { FastifyInstance } from 'fastify';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function dashboardRoutes(app: FastifyInstance): void {
  const web = webFiles();
  const vendor = vendorFiles();
  const notFound = { success: false, error: 'Not found', code: 'not_found' };
  // The page and its modules change with each release of Crier: revalidated, never cached stale.
  app.get('/', { schema: { hide: true } }, (_request, reply) => send(reply, web.get('index.html')!, 'no-cache'));
  app.get<{ Params: { file: string } }>('/dashboard/:file', { schema: { hide: true } }, (request, reply) => {
    const file = web.get(request.params.file);
    return file ? send(reply, file, 'no-cache') : reply.status(404).send(notFound);
  });
  app.get<{ Params: { file: string } }>('/dashboard/vendor/:file', { schema: { hide: true } }, (request, reply) => {
    const file = vendor.get(request.params.file);
    return file ? send(reply, file, 'public, max-age=3600') : reply.status(404).send(notFound);
  });
}
