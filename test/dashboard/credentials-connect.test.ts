// The dashboard's connect form for a network that connects with credentials of its own (a bot token
// and a chat), in a real headless Chromium against `crier start --sandbox`: the form is built from the
// fields the API's description declares, the secret one typed into a password input, and each refusal
// of the API said under its field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumPath, openDashboard, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('connecting with a bot token in the dashboard', { skip, timeout: 120_000 }, () => {
  let session: DashboardSession;
  let page: Page;

  before(async () => {
    session = await openDashboard('crier-credentials', executable!);
    page = session.page;
    await page.goto(`${session.base}/`);
    await page.getByLabel('API key').fill(session.run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  });
  after(() => session?.close());

  test('the Telegram form has the declared fields; malformed ones, then an unknown token, are refused under their fields', async () => {
    await page.goto(`${session.base}/#/accounts`);
    const form = page.getByRole('form', { name: 'Connect Telegram with a bot token' });
    await form.waitFor();
    assert.equal(await form.getByLabel('Bot token').getAttribute('type'), 'password', 'the token is a secret');
    assert.equal(await form.getByLabel('Chat id').getAttribute('type'), 'text');
    await form.getByLabel('Bot token').fill('not-a-token');
    await form.getByLabel('Chat id').fill('no spaces');
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.locator('.field-errors', { hasText: 'bot token as @BotFather gives it' }).waitFor();
    await form.locator('.field-errors', { hasText: "chat's public @username or its numeric id" }).waitFor();

    await form.getByLabel('Bot token').fill('123456789:AAbbccddeeffgghhiijjkkllmmnnooppqq');
    await form.getByLabel('Chat id').fill('@crier_sandbox');
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.locator('.field-errors', { hasText: 'Telegram does not know this bot token' }).waitFor();
    assert.deepEqual(session.pageErrors, []);
  });

  test('the app-password form keeps its fields', async () => {
    const form = page.getByRole('form', { name: 'Connect Bluesky with an app password' });
    assert.equal(await form.getByLabel('App password').getAttribute('type'), 'password');
    assert.equal(await form.getByLabel('Handle').getAttribute('type'), 'text');
  });
});
