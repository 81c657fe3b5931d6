// Preloaded with `node --import` into a crier process under test: records every module the process
// loads, through import and require alike, and writes their URLs, one a line, to the file named by
// CRIER_TEST_LOADED_MODULES when the process exits.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.CRIER_TEST_LOADED_MODULES!, loaded.join('\n') + '\n'));
