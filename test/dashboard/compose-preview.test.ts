// Compose's preview in a real Chromium against `crier start --sandbox`: a thread with an image whose
// first part is over X's length is shown per network as that network will publish it — X's thread of
// two posts, its first part's count past 280 said in words; Bluesky's within 300; Instagram's reply as a comment; Google Business Profile's one post, the reply left out —
// then shortening the text clears the warning; a video shows as a labelled box, YouTube's title apart
// and the reply as a comment, TikTok's reply left out. Screenshots at desktop and phone widths.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { SandboxRun } from '../helpers/sandbox.ts';
import { makeJpeg, makeVideo } from '../helpers/media.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('the compose preview, per network', { skip, timeout: 180_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let page: Page;
  const username = (network: string) => run.accounts.find((a) => a.network === network)!.username.replace(/^@/, '');
  const card = (label: string) => page.getByRole('article', { name: `Preview on ${label}` });
  /** What a part shows, one line per paragraph. */
  const shown = async (part: Locator) => (await part.innerText()).replace(/\n+/g, '\n');

  before(async () => {
    session = await openDashboard('crier-dashboard-preview', executable!);
    ({ run, page } = session);
    await page.goto(`${session.base}/`);
    await page.getByLabel('API key').fill(run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  });
  after(() => session?.close());

  // 33 + 50 × 5 = 283 characters: over X's 280, within Bluesky's 300. (Plain Latin text: X weighs it 1
  // a character, as the unit tests of its measure show for links, emoji and CJK.)
  const root = `Launch day: the preview is here. ${'word '.repeat(50)}`;

  test('a thread with an image and an over-long X part: each network\'s card shows its parts, its count, its media', async () => {
    await page.goto(`${session.base}/#/compose`);
    for (const network of ['x', 'bluesky', 'instagram', 'google_business']) await page.getByRole('checkbox', { name: `@${username(network)}` }).check();
    await page.locator('#content-0').fill(root);
    await page.getByLabel('Attach an image or a video').first().setInputFiles({ name: 'launch.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg('640x400') });
    await page.getByText('uploaded').waitFor();
    await page.getByRole('button', { name: 'Add a reply to the thread' }).click();
    await page.locator('#content-1').fill('Thanks to everyone who tried it');

    const x = card('X');
    // The dry run is asked again as the form changes: wait for the answer that holds the reply's text.
    await x.locator('.preview-part').nth(1).getByText('Thanks to everyone who tried it').waitFor();
    await x.getByText('Too long: 283 / 280', { exact: false }).waitFor();
    const xParts = x.locator('.preview-part');
    assert.equal(await xParts.count(), 2);
    assert.match(await shown(xParts.nth(0)), /^POST 1 OF 2\n/i);
    assert.ok((await xParts.nth(0).locator('.preview-text').innerText()).startsWith('Launch day: the preview is here. word word'));
    assert.match(await xParts.nth(0).getByRole('note').innerText(), /^⚠ Too long: 283 \/ 280 weighted characters, 3 over the limit\. The network will refuse this part\. A link counts 23, an emoji or most CJK characters 2\.$/);
    await xParts.nth(0).getByRole('img', { name: 'launch.jpg' }).waitFor();
    assert.equal(await xParts.nth(0).getByRole('img', { name: 'launch.jpg' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 640, 'the thumbnail is the uploaded image');
    assert.match(await shown(xParts.nth(1)), /REPLY 2 OF 2\nThanks to everyone who tried it\n31 \/ 280 weighted characters$/i);
    assert.equal(await xParts.nth(1).getByRole('note').count(), 0, 'the reply is within the limit');

    const bluesky = card('Bluesky');
    assert.equal(await bluesky.locator('.preview-part').count(), 2);
    assert.match(await shown(bluesky.locator('.preview-part').nth(0)), /\n283 \/ 300 characters$/);
    assert.equal(await bluesky.getByRole('note').count(), 0);

    const instagram = card('Instagram');
    assert.match(await shown(instagram.locator('.preview-part').nth(0)), /\n283 \/ 2200 characters$/);
    assert.match(await shown(instagram.locator('.preview-part').nth(1)), /^COMMENT 2 OF 2\nThanks to everyone who tried it\n31 characters$/i);

    const business = card('Google Business Profile');
    assert.equal(await business.locator('.preview-part').count(), 1);
    assert.match(await shown(business.locator('.preview-part')), /^POST\n/i);
    await business.getByText('Google Business Profile takes no replies: the last part is not published there.').waitFor();
    await screenshots(page, 'compose-preview');
  });

  test('shortening the text clears X\'s warning', async () => {
    await page.locator('#content-0').fill(root.slice(0, -10));
    await card('X').getByText(/^273 \/ 280 /).waitFor();
    assert.equal(await card('X').getByRole('note').count(), 0);
    assert.equal(await page.locator('.preview-part-over').count(), 0);
  });

  test('a video with a reply: YouTube titles it from the first line and makes the reply a comment; TikTok leaves the reply out', async () => {
    await page.goto(`${session.base}/#/posts`);
    await page.goto(`${session.base}/#/compose`);
    for (const network of ['youtube', 'tiktok']) await page.getByRole('checkbox', { name: `@${username(network)}` }).check();
    await page.locator('#content-0').fill('Morning run\nalong the river');
    await page.getByLabel('Attach an image or a video').first().setInputFiles({ name: 'run.mp4', mimeType: 'video/mp4', buffer: await makeVideo({ seconds: 1, size: '320x240', rate: 25 }) });
    await page.getByText('uploaded').waitFor();
    await page.getByRole('button', { name: 'Add a reply to the thread' }).click();
    await page.locator('#content-1').fill('Thanks for watching');

    const youtube = card('YouTube');
    await youtube.locator('.preview-part').nth(1).getByText('Thanks for watching').waitFor();
    assert.equal(await shown(youtube.locator('.preview-part').nth(0)),
      'POST 1 OF 2\nMorning run\nMorning run\nalong the river\n▶ video: run.mp4\nTitle: 11 / 100 characters\nText: 27 / 5000 bytes');
    assert.equal(await shown(youtube.locator('.preview-part').nth(1)), 'COMMENT 2 OF 2\nThanks for watching\n19 characters');

    const tiktok = card('TikTok');
    assert.equal(await tiktok.locator('.preview-part').count(), 1);
    await tiktok.getByText('sent to the creator\'s TikTok inbox as a draft, without a caption: they write it in TikTok').waitFor();
    await tiktok.getByText('TikTok takes no replies: the last part is not published there.').waitFor();
    assert.equal(await tiktok.locator('.preview-count').count(), 0, 'no count for a text TikTok does not receive');
    assert.equal(await youtube.locator('h3 .muted').innerText(), `@${username('youtube')}`, 'one @ before the handle');
    await screenshots(page, 'compose-preview-video');
  });

  test('no script error on the page', () => {
    assert.deepEqual(session.pageErrors, []);
  });
});
