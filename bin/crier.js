#!/usr/bin/env node
// Entry point of the `crier` command. Crier runs its TypeScript sources directly (Node >= 22.18
// strips types natively), so there is no build step. This file is plain JavaScript so that an older
// Node reaches the check below and says what is needed, instead of dying on ERR_UNKNOWN_FILE_EXTENSION
// while loading the sources; they are imported only once the check passed.
if (!process.features.typescript) {
  console.error(
    `Crier needs Node.js 22.18 or newer (24 LTS recommended): it runs its TypeScript sources directly. ` +
      `This is Node.js ${process.versions.node} (${process.execPath}); install a newer Node and run the command again.`,
  );
  process.exit(1);
}
await import('../src/main.ts');
