// Which redirect URIs a client may register and which presented URI matches a registered one:
// https anywhere, plain http only to loopback (on any port, RFC 8252 §7.3), never a fragment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectUriMatches, redirectUriProblem, withQuery } from '../../src/oauth/redirect-uris.ts';

test('https URLs and loopback http URLs are accepted; every other form is refused, saying why', () => {
  for (const uri of ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:33418/callback', 'http://[::1]:8080/cb', 'http://localhost:6274/oauth/callback']) {
    assert.equal(redirectUriProblem(uri), undefined, uri);
  }
  const refused: [string, RegExp][] = [
    ['http://example.com/callback', /https URL, or http to a loopback/],
    ['http://127.0.0.1.example.com/cb', /https URL, or http to a loopback/],
    ['cursor://anysphere/callback', /https URL, or http to a loopback/],
    ['javascript:alert(1)', /https URL/],
    ['/relative/callback', /not an absolute URL/],
    ['https://example.com/cb#fragment', /fragment/],
    ['https://user:pass@example.com/cb', /user name or password/],
    [`https://example.com/${'a'.repeat(2001)}`, /longer than 2000/],
  ];
  for (const [uri, why] of refused) assert.match(redirectUriProblem(uri) ?? 'accepted', why, uri);
});

test('a presented URI matches a registered one exactly, or a loopback one on another port only', () => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1:33418/callback'];
  assert.equal(redirectUriMatches(registered, 'https://app.example/cb'), true);
  assert.equal(redirectUriMatches(registered, 'http://127.0.0.1:50000/callback'), true, 'loopback: any port');
  assert.equal(redirectUriMatches(registered, 'http://127.0.0.1:50000/elsewhere'), false);
  assert.equal(redirectUriMatches(registered, 'https://app.example/cb/'), false);
  assert.equal(redirectUriMatches(registered, 'https://app.example:8443/cb'), false, 'an https URI keeps its port');
  assert.equal(redirectUriMatches(registered, 'https://app.example/cb?extra=1'), false);
  assert.equal(redirectUriMatches(registered, 'http://localhost:33418/callback'), false, 'another loopback host is another URI');
});

test('the answer\'s parameters are added to the redirect URI\'s own query', () => {
  assert.equal(withQuery('https://app.example/cb?tenant=a', { code: 'c 1', state: undefined, iss: 'https://crier.example' }), 'https://app.example/cb?tenant=a&code=c+1&iss=https%3A%2F%2Fcrier.example');
});
