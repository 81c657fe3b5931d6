// What Reddit's json.errors mean for a post (src/networks/reddit/client.ts refusal): RATELIMIT waits
// for the time Reddit gives, in json.ratelimit or only in its words; the rest is refused for good,
// with Reddit's words and a code the engine and users can tell apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postUrl, refusal } from '../../../src/networks/reddit/client.ts';

test('RATELIMIT with json.ratelimit: retryable after those seconds', () => {
  const error = refusal([['RATELIMIT', 'Take a break for 2 minutes before trying again.', 'ratelimit']], 95.2);
  assert.deepEqual([error.kind, error.code, error.retryAfterMs], ['retryable', 'rate_limited', 95_200]);
  assert.equal(error.message, 'reddit: rate limited (Take a break for 2 minutes before trying again. (RATELIMIT, ratelimit))');
});

test('RATELIMIT with the wait only in its words: minutes, seconds, or ten minutes when it says none', () => {
  assert.equal(refusal([['RATELIMIT', 'You\'re doing that too much. Try again in 3 minutes.', 'ratelimit']], undefined).retryAfterMs, 180_000);
  assert.equal(refusal([['RATELIMIT', 'Try again in 45 seconds.', 'ratelimit']], undefined).retryAfterMs, 45_000);
  assert.equal(refusal([['RATELIMIT', 'slow down', 'ratelimit']], undefined).retryAfterMs, 600_000);
});

test('other errors are permanent, every one of them said, with a code', () => {
  const both = refusal([['NO_TEXT', 'we need something here', 'title'], ['BAD_URL', 'you should check that url', 'url']], undefined);
  assert.deepEqual([both.kind, both.code], ['permanent', 'invalid']);
  assert.equal(both.message, 'reddit: we need something here (NO_TEXT, title); you should check that url (BAD_URL, url)');
  assert.equal(refusal([['SUBREDDIT_NOEXIST', 'that subreddit doesn\'t exist', 'sr']], undefined).code, 'not_found');
  assert.equal(refusal([['SUBREDDIT_NOTALLOWED', 'you aren\'t allowed to post there.', 'sr']], undefined).code, 'forbidden');
  assert.equal(refusal([['ALREADY_SUB', 'that link has already been submitted', 'url']], undefined).code, 'duplicate');
});

test('the post URL is www.reddit.com and the permalink, or the short form when Reddit gave none', () => {
  assert.equal(postUrl('https://reddit.com/r/a/comments/abc/t/', 't3_abc'), 'https://www.reddit.com/r/a/comments/abc/t/');
  assert.equal(postUrl(undefined, 't3_abc'), 'https://www.reddit.com/comments/abc/');
  assert.equal(postUrl('https://example.com/not-reddit', 't3_abc'), 'https://www.reddit.com/comments/abc/');
});
