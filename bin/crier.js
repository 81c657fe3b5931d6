#!/usr/bin/env node
// Entry point of the `crier` command. Crier runs its TypeScript sources directly (Node >= 22.18
// strips types natively), so there is no build step. This file is plain JavaScript so that an older
// Node reaches the check below and says what is needed, instead of dying on ERR_UNKNOWN_FILE_EXTENSION
// while loading the sources; they are imported only once the check passed.
if (!process.features.typescript) {
  console.error(
    `Crier needs Node.js 22.18 or newer (24 LTS recommended): it runs its TypeScript sources directly. ` +
      `This is Node.js ${process.versions.node} (${process.execPath}); install Node 24 (nvm install 24, or https://nodejs.org) ` +
      `and run the command again, or run it once with npx -y node@24 bin/crier.js <command>.`,
  );
  process.exit(1);
}
// Node's compile cache keeps, per source file, its type-stripped text and V8's compiled code (in the
// OS temp dir, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Every start after
// the first neither strips types again nor loads the type stripper, whose WebAssembly memory would
// stay in the process for its whole life (~20 MB), and compiles less: `npm run bench:footprint`.
const { enableCompileCache } = await import('node:module');
enableCompileCache();
await import('../src/main.ts');
