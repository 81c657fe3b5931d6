// tsc emits only JavaScript: the icon the nodes and the credential name (file:../../icons/crier.svg,
// relative to each emitted file) is copied into dist/ beside them.
const { cpSync } = require('node:fs');
const path = require('node:path');

cpSync(path.join(__dirname, 'icons'), path.join(__dirname, 'dist', 'icons'), { recursive: true });
