// Which redirect URIs a client may register and which presented URI matches a registered one:
// https anywhere, plain http only to loopback (on any port, RFC 8252 §7.3), an application's own
// scheme (RFC 8252 §7.1) exactly; never a scheme the browser handles itself, never a fragment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectUriMatches, redirectUriProblem, returnAddress, withQuery } from '../../src/oauth/redirect-uris.ts';

test('https URLs, loopback http URLs and private-use schemes are accepted', () => {
  const accepted = [
    'https://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1:33418/callback',
    'http://[::1]:8080/cb',
    'http://localhost:6274/oauth/callback',
    'cursor://anysphere.cursor-retrieval/oauth/user-Crier/callback',
    'vscode://vscode.github-authentication/did-authenticate?windowid=1',
    'com.example.app:/oauth2redirect',
  ];
  for (const uri of accepted) assert.equal(redirectUriProblem(uri), undefined, uri);
});

test('every other form is refused, saying why', () => {
  const refused: [string, RegExp][] = [
    ['http://example.com/callback', /plain http to another host/],
    ['http://127.0.0.1.example.com/cb', /plain http to another host/],
    ['javascript:alert(1)', /javascript: scheme/],
    ['JavaScript://%0aalert(1)', /javascript: scheme/],
    ['java\tscript:alert(1)', /spaces or control characters/],
    [' javascript:alert(1)', /spaces or control characters/],
    ['javascript:alert(1)\n', /spaces or control characters/],
    ['data:text/html,<script>alert(1)</script>', /data: scheme/],
    ['vbscript:msgbox(1)', /vbscript: scheme/],
    ['file:///etc/passwd', /file: scheme/],
    ['blob:https://crier.example/0b7d', /blob: scheme/],
    ['about:blank', /about: scheme/],
    ['view-source:https://crier.example/', /view-source: scheme/],
    ['wss://agent.example/cb', /wss: scheme/],
    ['mailto:attacker@example.com', /hierarchical/],
    ['myapp:callback', /hierarchical/],
    ['/relative/callback', /not an absolute URL/],
    ['https://example.com/cb#fragment', /fragment/],
    ['cursor://anysphere/cb#x', /fragment/],
    ['https://user:pass@example.com/cb', /user name or password/],
    ['cursor://user@anysphere/cb', /user name or password/],
    [`https://example.com/${'a'.repeat(2001)}`, /longer than 2000/],
  ];
  for (const [uri, why] of refused) assert.match(redirectUriProblem(uri) ?? 'accepted', why, JSON.stringify(uri));
});

test('a presented URI matches a registered one exactly, or a loopback one on another port only', () => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1:33418/callback', 'cursor://anysphere.cursor-retrieval/cb'];
  assert.equal(redirectUriMatches(registered, 'https://app.example/cb'), true);
  assert.equal(redirectUriMatches(registered, 'http://127.0.0.1:50000/callback'), true, 'loopback: any port');
  assert.equal(redirectUriMatches(registered, 'http://127.0.0.1:50000/elsewhere'), false);
  assert.equal(redirectUriMatches(registered, 'https://app.example/cb/'), false);
  assert.equal(redirectUriMatches(registered, 'https://app.example:8443/cb'), false, 'an https URI keeps its port');
  assert.equal(redirectUriMatches(registered, 'https://app.example/cb?extra=1'), false);
  assert.equal(redirectUriMatches(registered, 'http://localhost:33418/callback'), false, 'another loopback host is another URI');
  assert.equal(redirectUriMatches(registered, 'cursor://anysphere.cursor-retrieval/cb'), true, 'a private-use URI: exactly');
  for (const near of ['cursor://anysphere.cursor-retrieval:1/cb', 'cursor://anysphere.cursor-retrieval/cb/', 'cursor://anysphere.cursor-retrieval/cb?x=1', 'CURSOR://anysphere.cursor-retrieval/cb', 'cursor://evil/cb']) {
    assert.equal(redirectUriMatches(registered, near), false, near);
  }
});

test('the consent page\'s "goes to": scheme and host, port kept, and what kind of place it is', () => {
  assert.deepEqual(returnAddress('https://agent.example/cb'), { address: 'https://agent.example', kind: 'web' });
  assert.deepEqual(returnAddress('http://127.0.0.1:33418/callback'), { address: 'http://127.0.0.1:33418', kind: 'loopback' });
  assert.deepEqual(returnAddress('cursor://anysphere.cursor-retrieval/oauth/cb'), { address: 'cursor://anysphere.cursor-retrieval', kind: 'application' });
  assert.deepEqual(returnAddress('com.example.app:/oauth2redirect'), { address: 'com.example.app:', kind: 'application' });
  assert.deepEqual(returnAddress('https://\u0430pple.example/cb'), { address: 'https://xn--pple-43d.example', kind: 'web' }, 'a look-alike host shows as punycode');
});

test('the answer\'s parameters are added to the redirect URI\'s own query, private-use schemes included', () => {
  assert.equal(withQuery('https://app.example/cb?tenant=a', { code: 'c 1', state: undefined, iss: 'https://crier.example' }), 'https://app.example/cb?tenant=a&code=c+1&iss=https%3A%2F%2Fcrier.example');
  assert.equal(withQuery('vscode://vscode.github-authentication/did-authenticate?windowid=1', { code: 'c' }), 'vscode://vscode.github-authentication/did-authenticate?windowid=1&code=c');
  assert.equal(withQuery('com.example.app:/cb', { code: 'c' }), 'com.example.app:/cb?code=c');
});
