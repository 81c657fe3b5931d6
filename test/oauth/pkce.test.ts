// PKCE S256 (RFC 7636): the verifier matches the challenge made from it, and nothing else does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isS256Challenge, verifierMatches } from '../../src/oauth/pkce.ts';

// RFC 7636 Appendix B's example.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

test('the RFC\'s example verifier matches its challenge; another verifier does not', () => {
  assert.equal(isS256Challenge(CHALLENGE), true);
  assert.equal(verifierMatches(VERIFIER, CHALLENGE), true);
  assert.equal(verifierMatches(VERIFIER.replace('d', 'e'), CHALLENGE), false);
});

test('a verifier used as its own challenge (plain) never matches, nor does a malformed one', () => {
  assert.equal(verifierMatches(VERIFIER, VERIFIER), false);
  assert.equal(verifierMatches('short', CHALLENGE), false);
  assert.equal(verifierMatches(`${VERIFIER}!`, CHALLENGE), false);
  assert.equal(isS256Challenge(`${CHALLENGE}=`), false);
});
