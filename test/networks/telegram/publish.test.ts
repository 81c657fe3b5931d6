// Publishing to a Telegram channel over real HTTP: Crier's API and worker, the Telegram emulator as the
// Bot API (downloading files named by URL from Crier's HTTPS front, as Telegram does), and what Crier
// reports. Each test checks what the channel holds afterwards: texts, entities, files, replies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJpeg, paddedVideo } from '../../helpers/media.ts';
import { startTelegramStack, type Channel, type TelegramStack } from './setup.ts';
import { publishedDestination } from '../../helpers/posting-stack.ts';

describe('publishing to Telegram', () => {
  let s: TelegramStack;
  let jpeg: Buffer;

  before(async () => {
    s = await startTelegramStack();
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const destination = (post: any) => post.socialAccounts[0];
  const messages = (channel: Channel) => s.tg.chat(channel.chatId)!.messages;
  const photo = (name: string) => s.media(name, jpeg, 'image/jpeg');

  it('a text post to a public channel: sent as it is (no parse mode), its t.me link, silent and protected as the block asks', async () => {
    const channel = await s.addChannel('crier_news');
    const text = 'a <b>literal</b> tag & an ampersand: nothing here is markup';
    const dest = publishedDestination(await s.publish(channel, { containers: [{ content: text }], telegram: { disableNotification: true, protectContent: true, disableLinkPreview: true } }));
    const [message] = messages(channel);
    assert.equal(message!.text, text);
    assert.deepEqual(message!.entities, []);
    assert.equal(message!.parseMode, undefined);
    assert.deepEqual([message!.disableNotification, message!.protectContent, message!.linkPreviewDisabled], [true, true, true]);
    assert.equal(dest.platformPostId, String(message!.messageId));
    assert.equal(dest.platformPostUrl, `https://t.me/crier_news/${message!.messageId}`);
  });

  it('HTML parse mode on telegram.content: Telegram reads the markup, escaped characters arrive as they stand; the shared reply stays plain', async () => {
    const channel = await s.addChannel();
    const html = '<b>Release 2.0</b> &lt;today&gt; &amp; <a href="https://example.com/notes">notes</a>';
    const dest = publishedDestination(await s.publish(channel, { containers: [{ content: 'fallback' }, { content: 'a <b> & c' }], telegram: { content: html, parseMode: 'HTML' } }));
    const [message, reply] = messages(channel);
    assert.deepEqual([reply!.text, reply!.entities, reply!.parseMode], ['a <b> & c', [], undefined]);
    assert.equal(message!.text, 'Release 2.0 <today> & notes');
    assert.deepEqual(message!.entities, [
      { type: 'bold', offset: 0, length: 11 },
      { type: 'text_link', offset: 22, length: 5, url: 'https://example.com/notes' },
    ]);
    assert.match(dest.platformPostUrl, new RegExp(`^https://t\\.me/c/${String(channel.chatId).replace(/^-100/, '')}/${message!.messageId}$`), 'a private channel\'s link');
  });

  it('a photo with a caption, by URL: Telegram fetched it from Crier', async () => {
    const channel = await s.addChannel();
    publishedDestination(await s.publish(channel, { containers: [{ content: 'a photo', media: [await photo('one.jpg')] }] }));
    const [message] = messages(channel);
    assert.equal(message!.caption, 'a photo');
    assert.equal(message!.file!.kind, 'photo');
    assert.equal(message!.file!.came, 'url');
    assert.equal(message!.file!.size, jpeg.length);
  });

  it('a photo over the URL limit is uploaded (multipart) instead, alone or in an album', async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const channel = await s.addChannel();
    publishedDestination(await s.publish(channel, { containers: [{ content: 'a big photo', media: [{ url: await s.upload('big.jpg', big, 'image/jpeg'), filename: 'big.jpg' }] }] }));
    const [message] = messages(channel);
    assert.equal(message!.file!.came, 'upload');
    assert.equal(message!.file!.size, big.length);
    assert.equal(message!.caption, 'a big photo');

    // In an album the big one is uploaded (attach://) and the other still goes by URL.
    const mixed = await s.addChannel();
    publishedDestination(await s.publish(mixed, { containers: [{ content: 'mixed', media: [{ url: await s.upload('big2.jpg', big, 'image/jpeg'), filename: 'big2.jpg' }, await photo('small.jpg')] }] }));
    assert.deepEqual(messages(mixed).map((m) => [m.file!.came, m.file!.size, m.caption]), [['upload', big.length, 'mixed'], ['url', jpeg.length, undefined]]);
  });

  it('a GIF goes as a document (Telegram animates it), an MP4 as a video', async () => {
    const channel = await s.addChannel();
    // A 1x1 GIF (Crier's media takes images and videos; any other file comes as a document the same way).
    const gif = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
    publishedDestination(await s.publish(channel, { containers: [
      { content: 'the loop', media: [{ url: await s.upload('loop.gif', gif, 'image/gif'), filename: 'loop.gif' }] },
      { content: 'the clip', media: [{ url: await s.upload('clip.mp4', await paddedVideo(200_000), 'video/mp4'), filename: 'clip.mp4' }] },
    ] }));
    const [doc, clip] = messages(channel);
    assert.deepEqual([doc!.file!.kind, doc!.file!.size, doc!.caption], ['document', gif.length, 'the loop']);
    assert.deepEqual([clip!.file!.kind, clip!.caption, clip!.replyTo], ['video', 'the clip', doc!.messageId]);
  });

  it('an album: one sendMediaGroup, the caption on its first photo; every message kept to delete them all', async () => {
    const channel = await s.addChannel();
    const dest = publishedDestination(await s.publish(channel, { containers: [{ content: 'three photos', media: [await photo('a.jpg'), await photo('b.jpg'), await photo('c.png.jpg')] }] }));
    const sent = messages(channel);
    assert.equal(sent.length, 3);
    assert.equal(new Set(sent.map((m) => m.mediaGroupId)).size, 1);
    assert.ok(sent[0]!.mediaGroupId);
    assert.deepEqual(sent.map((m) => m.caption), ['three photos', undefined, undefined]);
    assert.equal(dest.platformPostId, String(sent[0]!.messageId));
  });

  it('a thread: every later container replies to the root', async () => {
    const channel = await s.addChannel();
    publishedDestination(await s.publish(channel, { containers: [{ content: 'first' }, { content: 'second' }, { content: 'third', media: [await photo('t.jpg')] }] }));
    const [root, second, third] = messages(channel);
    assert.deepEqual([root!.text, second!.text, third!.caption], ['first', 'second', 'third']);
    assert.deepEqual([root!.replyTo, second!.replyTo, third!.replyTo], [undefined, root!.messageId, root!.messageId]);
  });

  it('429 flood control: the destination waits retry_after, then publishes once', async () => {
    const channel = await s.addChannel();
    s.tg.floodChat(channel.chatId, 1);
    const started = Date.now();
    const post = await s.publish(channel, { containers: [{ content: 'after the flood' }] });
    publishedDestination(post);
    assert.ok(Date.now() - started >= 1000, 'waited the second Telegram asked for');
    assert.deepEqual(messages(channel).map((m) => m.text), ['after the flood']);
  });

  it('a kicked bot: the destination fails saying so, and the account is disconnected', async () => {
    const channel = await s.addChannel();
    s.tg.kickBot(channel.chatId, channel.bot);
    const dest = destination(await s.publish(channel, { containers: [{ content: 'nobody will see this' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^telegram: the bot cannot post to the chat any more \(Forbidden: bot was kicked from the channel chat\); add it back as an administrator/);
    const row = (await s.h.server.db.query('SELECT is_active FROM social_accounts WHERE id = $1', [channel.rawId])).rows[0];
    assert.equal(row.is_active, false);
    assert.deepEqual(messages(channel), []);
  });

  it('what Telegram cannot send is refused at create, before any call: a caption over 1,024 UTF-16 units, bad HTML, an album of 11', async () => {
    const channel = await s.addChannel();
    const refusal = async (body: object) => {
      const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts: [channel.id], ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      return res.body.details[0].message as string;
    };
    const pic = await photo('p.jpg');
    // 513 emoji are 513 code points but 1,026 UTF-16 code units: over the caption limit as Telegram counts.
    assert.match(await refusal({ containers: [{ content: '😀'.repeat(513), media: [pic] }] }), /container 1 is 1026 characters as Telegram counts them .* Telegram allows 1024 in a caption/);
    assert.match(await refusal({ containers: [{ content: 'x' }], telegram: { parseMode: 'HTML', content: 'a < b' } }), /HTML markup cannot be read by Telegram: a "<" at character 3 does not start a tag/);
    assert.match(await refusal({ containers: [{ content: 'many', media: Array(11).fill(pic) }] }), /container 1 has 11 files; a Telegram album takes 10 at most/);
    assert.deepEqual(messages(channel), []);
  });

  it('the dry run shows each message as Telegram counts it; a link-preview switch on a post of files only is ignored with a warning', async () => {
    const channel = await s.addChannel();
    const dry = await s.h.server.request('POST', '/v1/posts?dry_run=true', { key: s.org.key, body: {
      accounts: [channel.id], containers: [{ content: 'ignored', media: [await photo('d.jpg')] }], telegram: { content: '<i>😀 caption</i>', parseMode: 'HTML', disableLinkPreview: true },
    } });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.match(dry.body.warnings[0], /^"telegram\.disableLinkPreview" was ignored: every message of this post carries files/);
    const preview = JSON.stringify(dry.body);
    assert.match(preview, /"text":"<i>😀 caption<\/i>","length":10,"limit":1024,"unit":"utf16"/);
    assert.deepEqual(messages(channel), [], 'a dry run sends nothing');
  });
});
