// LinkedIn's little text: what Crier sends as a post's commentary for the text and mentions a user wrote.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeLittle, fromLittle, toCommentary } from '../../../src/networks/linkedin/commentary.ts';

test('every reserved character of plain text is escaped, so LinkedIn does not cut the post at it', () => {
  assert.equal(escapeLittle('a\\b|c{d}e@f[g]h(i)j<k>l#m*n_o~p'), 'a\\\\b\\|c\\{d\\}e\\@f\\[g\\]h\\(i\\)j\\<k\\>l\\#m\\*n\\_o\\~p');
  assert.equal(toCommentary('Results (Q3): up 5% — see https://ex.com/a_b?x=(1)'), 'Results \\(Q3\\): up 5% — see https://ex.com/a\\_b?x=\\(1\\)');
});

test('hashtags stay hashtags; a lone # is text', () => {
  assert.equal(toCommentary('Ship it #launch #día2 and # alone'), 'Ship it #launch #día2 and \\# alone');
});

test('each mention becomes markup at the first occurrence of its text, the rest stays text', () => {
  const text = 'Thanks Ada Lovelace and Acme (again: Ada Lovelace)';
  const got = toCommentary(text, [
    { urn: 'urn:li:organization:42', text: 'Acme' },
    { urn: 'urn:li:person:abc', text: 'Ada Lovelace' },
  ]);
  assert.equal(got, 'Thanks @[Ada Lovelace](urn:li:person:abc) and @[Acme](urn:li:organization:42) \\(again: Ada Lovelace\\)');
});

test('two mentions with the same text take successive occurrences; a name with reserved characters is escaped', () => {
  const got = toCommentary('Sam and Sam_Co met Sam', [
    { urn: 'urn:li:person:1', text: 'Sam' },
    { urn: 'urn:li:person:2', text: 'Sam' },
    { urn: 'urn:li:organization:3', text: 'Sam_Co' },
  ]);
  assert.equal(got, '@[Sam](urn:li:person:1) and @[Sam\\_Co](urn:li:organization:3) met @[Sam](urn:li:person:2)');
});

test('read back (imports): mentions show their text, hashtag templates their #word, escapes the character; what Crier sent reads as written', () => {
  assert.equal(fromLittle('Hi @[Ada \\(AL\\)](urn:li:person:abc) {hashtag|\\#|launch} and \\#1 \\(ok\\)'), 'Hi Ada (AL) #launch and #1 (ok)');
  const written = 'Results (Q3): up 5% — thanks Acme #win';
  assert.equal(fromLittle(toCommentary(written, [{ urn: 'urn:li:organization:42', text: 'Acme' }])), written);
});
