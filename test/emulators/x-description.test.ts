// The X emulator held to X's OpenAPI description (emulators/x/description/): the query parameters
// each served operation takes, refused otherwise with X's invalid-request envelope, in either field
// vocabulary (v2.166 `tweet`, v2.167 `post`); repeated parameters kept and refused as X refuses them;
// multipart media read as raw bytes whether or not the part names a file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startXEmulator, type VocabularySetting, type XEmulator } from '../../emulators/x/server.ts';

const INVALID = { title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.x.com/2/problems/invalid-request' };
/** A 2×3 PNG: its bytes are not valid UTF-8, so any text decoding of them shows. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000003080600000000000000', 'hex');

const emulators: Partial<Record<VocabularySetting, XEmulator>> = {};
let users = 0;

before(async () => {
  for (const setting of ['tweet', 'post', 'both'] as const) emulators[setting] = await startXEmulator({ fieldVocabulary: setting });
});
after(async () => {
  for (const x of Object.values(emulators)) await x.close();
});

function userOn(x: XEmulator) {
  users += 1;
  const token = `desc-token-${users}`;
  const user = x.addUser({ username: `desc${users}`, accessToken: token });
  return { user, token };
}

async function get(x: XEmulator, token: string, path: string) {
  const res = await fetch(`${x.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

describe('query parameters, as X\'s description names them', () => {
  it('refuses a parameter the operation does not take with 400 and X\'s envelope listing the ones it does', async () => {
    const x = emulators.tweet!;
    const { user, token } = userOn(x);
    const posted = x.addTweet({ authorId: user.id, text: 'hello' });
    const res = await get(x, token, `/2/tweets/${posted.id}?dummy=value`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      ...INVALID,
      errors: [{
        parameters: { dummy: ['value'] },
        message: 'The query parameter [dummy] is not one of [id,tweet.fields,expansions,media.fields,poll.fields,user.fields,place.fields]',
      }],
    });
  });

  it('checks every served GET against its operation in both descriptions', async () => {
    const expected: Record<string, { tweet: string; post: string }> = {
      '/2/users/me': { tweet: 'user.fields,expansions,tweet.fields', post: 'user.fields,expansions,post.fields' },
      '/2/tweets/search/recent?query=conversation_id:1': {
        tweet: 'query,start_time,end_time,since_id,until_id,max_results,next_token,pagination_token,sort_order,tweet.fields,expansions,media.fields,poll.fields,user.fields,place.fields',
        post: 'query,max_results,next_token,pagination_token,start_time,end_time,since_id,until_id,sort_order,post.fields,expansions,user.fields,media.fields,poll.fields,place.fields',
      },
      '/2/media/upload?media_id=1': { tweet: 'media_id,command', post: 'media_id,command' },
    };
    for (const setting of ['tweet', 'post'] as const) {
      const x = emulators[setting]!;
      const { token } = userOn(x);
      for (const [path, lists] of Object.entries(expected)) {
        const res = await get(x, token, `${path}${path.includes('?') ? '&' : '?'}dummy=1`);
        assert.equal(res.status, 400, path);
        assert.equal(res.body.errors[0].message, `The query parameter [dummy] is not one of [${lists[setting]}]`, `${setting} ${path}`);
      }
    }
  });

  it('keeps every value of a repeated parameter and refuses it as X does', async () => {
    const x = emulators.both!;
    const { user, token } = userOn(x);
    const posted = x.addTweet({ authorId: user.id, text: 'twice' });
    const res = await get(x, token, `/2/tweets/${posted.id}?tweet.fields=author_id&tweet.fields=created_at`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, [{
      parameters: { 'tweet.fields': ['author_id', 'created_at'] },
      message: 'Duplicate parameters are not allowed: the `tweet.fields` query parameter',
    }]);
    const recorded = x.calls().at(-1)!;
    assert.deepEqual(recorded.queryValues, { 'tweet.fields': ['author_id', 'created_at'] });
    assert.deepEqual(recorded.query, { 'tweet.fields': 'author_id' });
  });
});

describe('field vocabularies', () => {
  async function replyOn(x: XEmulator) {
    const { user, token } = userOn(x);
    const root = x.addTweet({ authorId: user.id, text: 'root' });
    const reply = x.addTweet({ authorId: user.id, text: `a long reply ${'word '.repeat(70)}`, inReplyTo: root.id });
    return { token, root, reply };
  }

  it('tweet: takes tweet.fields and answers referenced_tweets and note_tweet; post.fields is unknown', async () => {
    const x = emulators.tweet!;
    const { token, root, reply } = await replyOn(x);
    const ok = await get(x, token, `/2/tweets/${reply.id}?tweet.fields=referenced_tweets,note_tweet`);
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.data.referenced_tweets, [{ type: 'replied_to', id: root.id }]);
    assert.match(ok.body.data.note_tweet.text, /^a long reply/);
    assert.deepEqual(ok.body.data.edit_history_tweet_ids, [reply.id]);
    const refused = await get(x, token, `/2/tweets/${reply.id}?post.fields=referenced_posts`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.errors[0].message, /^The query parameter \[post\.fields\] is not one of \[/);
  });

  it('post: takes post.fields and answers referenced_posts, note_post and edit_history_post_ids; tweet.fields is unknown', async () => {
    const x = emulators.post!;
    const { token, root, reply } = await replyOn(x);
    const ok = await get(x, token, `/2/tweets/${reply.id}?post.fields=referenced_posts,note_post,author_id`);
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.data.referenced_posts, [{ type: 'replied_to', id: root.id }]);
    assert.match(ok.body.data.note_post.text, /^a long reply/);
    assert.deepEqual(ok.body.data.edit_history_post_ids, [reply.id]);
    assert.equal(ok.body.data.referenced_tweets, undefined);
    const refused = await get(x, token, `/2/tweets/${reply.id}?tweet.fields=referenced_tweets`);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors[0].parameters, { 'tweet.fields': ['referenced_tweets'] });
    const oldName = await get(x, token, `/2/tweets/${reply.id}?post.fields=referenced_tweets`);
    assert.equal(oldName.status, 400);
    assert.match(oldName.body.errors[0].message, /^The `post\.fields` query parameter value \[referenced_tweets\] is not one of \[/);
  });

  it('both: answers each field under the name it was asked by', async () => {
    const x = emulators.both!;
    const { token, root, reply } = await replyOn(x);
    const asTweet = await get(x, token, `/2/tweets/${reply.id}?tweet.fields=referenced_tweets`);
    assert.deepEqual(asTweet.body.data.referenced_tweets, [{ type: 'replied_to', id: root.id }]);
    const asPost = await get(x, token, `/2/tweets/${reply.id}?post.fields=referenced_posts`);
    assert.deepEqual(asPost.body.data.referenced_posts, [{ type: 'replied_to', id: root.id }]);
  });

  it('switches vocabulary at run time', async () => {
    const x = await startXEmulator({ fieldVocabulary: 'tweet' });
    try {
      const { token, reply } = await replyOn(x);
      assert.equal((await get(x, token, `/2/tweets/${reply.id}?tweet.fields=author_id`)).status, 200);
      x.setFieldVocabulary('post');
      assert.equal((await get(x, token, `/2/tweets/${reply.id}?tweet.fields=author_id`)).status, 400);
      assert.equal((await get(x, token, `/2/tweets/${reply.id}?post.fields=author_id`)).status, 200);
    } finally {
      await x.close();
    }
  });
});

describe('multipart media', () => {
  /** A multipart body written by hand: `media` without a filename, as twitter-api-v2 sends its chunks. */
  function multipart(fields: Record<string, string>, media: Buffer) {
    const boundary = '--------------------------123456789012345678901234';
    const text = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('');
    const body = Buffer.concat([
      Buffer.from(`${text}--${boundary}\r\nContent-Disposition: form-data; name="media"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      media,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  }

  async function post(x: XEmulator, token: string, path: string, form: { body: Buffer; contentType: string }) {
    const res = await fetch(`${x.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType }, body: new Uint8Array(form.body) });
    return { status: res.status, body: await res.json() };
  }

  it('reads a media part without a filename as raw bytes (one-shot upload)', async () => {
    const x = emulators.both!;
    const { token } = userOn(x);
    const res = await post(x, token, '/2/media/upload', multipart({ media_category: 'tweet_image' }, PNG));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.size, PNG.length);
    assert.deepEqual(res.body.data.image, { image_type: 'image/png', w: 2, h: 3 });
  });

  it('reads chunks without a filename as raw bytes (append)', async () => {
    const x = emulators.both!;
    const { token } = userOn(x);
    const init = await fetch(`${x.url}/2/media/upload/initialize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ media_type: 'image/png', media_category: 'tweet_image', total_bytes: PNG.length }),
    }).then((r) => r.json());
    const id = init.data.id as string;
    for (const [index, chunk] of [PNG.subarray(0, 10), PNG.subarray(10)].entries()) {
      const appended = await post(x, token, `/2/media/upload/${id}/append`, multipart({ segment_index: String(index) }, chunk));
      assert.equal(appended.status, 200, JSON.stringify(appended.body));
    }
    const finalized = await fetch(`${x.url}/2/media/upload/${id}/finalize`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    assert.equal(finalized.data.size, PNG.length);
    assert.deepEqual(finalized.data.image, { image_type: 'image/png', w: 2, h: 3 });
  });
});
