// A network that fetches media by URL from the real internet cannot reach Crier's own media behind a
// local or private PUBLIC_BASE_URL: the destination fails before any call, saying what to set. An
// emulator (the sandbox, tests) fetches from Crier directly, and media elsewhere is passed as it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublishError } from '../../src/core/errors.ts';
import { checkFetchableByNetwork } from '../../src/networks/public-url.ts';

const own = (base: string) => `${base}/media/tok123/clip.mp4`;

test('Crier\'s own media behind a local, private or plain-http PUBLIC_BASE_URL is refused for a real network', () => {
  for (const [base, why] of [
    ['http://localhost:3000', 'is not https'],
    ['https://localhost:3000', 'is not a public host name'],
    ['https://crier.internal', 'is not a public host name'],
    ['https://10.0.0.5', 'is not a public address'],
    ['https://[::1]:8443', 'is not a public address'],
    ['https://myhost', 'is not a public host name'],
  ] as const) {
    assert.throws(() => checkFetchableByNetwork('instagram', own(base), { publicBaseUrl: base, realNetwork: true }), (error: unknown) => {
      assert.ok(error instanceof PublishError);
      assert.equal(error.kind, 'permanent');
      assert.equal(error.message, `instagram: instagram downloads media from Crier at ${base}, which ${why}; set PUBLIC_BASE_URL to a public https address (or use media at a public https URL)`);
      return true;
    }, base);
  }
});

test('a public https PUBLIC_BASE_URL, an emulator, or media elsewhere pass', () => {
  checkFetchableByNetwork('instagram', own('https://crier.example.com'), { publicBaseUrl: 'https://crier.example.com', realNetwork: true });
  checkFetchableByNetwork('instagram', own('https://93.184.216.34'), { publicBaseUrl: 'https://93.184.216.34', realNetwork: true });
  checkFetchableByNetwork('instagram', own('http://localhost:3000'), { publicBaseUrl: 'http://localhost:3000', realNetwork: false });
  checkFetchableByNetwork('instagram', 'https://cdn.example.com/a.jpg', { publicBaseUrl: 'http://localhost:3000', realNetwork: true });
});
