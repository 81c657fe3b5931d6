// Vendoring an official OpenAPI description, cut to what an emulator serves: the named operations and
// every component they reference, nothing else (Pinterest's whole v5 description is 2 MB; the part
// its emulator serves is 60 KB). Run by hand when a network publishes a new version, never at start:
//
//   node emulators/shared/openapi-subset.ts <full openapi.json> <out.json> "get /boards" "post /pins" …
//
// The output is the network's text, reordered by nothing: a reviewer can diff it against the source.
import { readFileSync, writeFileSync } from 'node:fs';

type Json = unknown;

export function openApiSubset(doc: Record<string, any>, operations: string[]): Record<string, unknown> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const operation of operations) {
    const [method, path] = operation.split(' ') as [string, string];
    const item = doc.paths?.[path];
    if (!item?.[method]) throw new Error(`${operation}: not in the description`);
    (paths[path] ??= {})[method] = item[method];
    if (item.parameters) paths[path]!.parameters = item.parameters;
  }
  const referenced = new Set<string>();
  const walk = (node: Json): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/') && !referenced.has(value)) {
        referenced.add(value);
        walk(value.slice(2).split('/').reduce((at: any, part) => at[part], doc));
      } else if (key !== '$ref') walk(value);
    }
  };
  walk(paths);
  const components: Record<string, Record<string, Json>> = {};
  for (const ref of [...referenced].sort()) {
    const [, , kind, name] = ref.split('/') as [string, string, string, string];
    (components[kind] ??= {})[name] = doc.components[kind][name];
  }
  return { openapi: doc.openapi, info: doc.info, servers: doc.servers, paths, components };
}

if (import.meta.main) {
  const [source, out, ...operations] = process.argv.slice(2);
  if (!source || !out || !operations.length) throw new Error('usage: openapi-subset.ts <openapi.json> <out.json> "<method> <path>"…');
  const subset = openApiSubset(JSON.parse(readFileSync(source, 'utf8')), operations);
  writeFileSync(out, JSON.stringify(subset, null, 1) + '\n');
}
