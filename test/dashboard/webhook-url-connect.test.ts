// The dashboard's connect form for Discord (a channel webhook's URL, the one credential field it
// declares), in a real headless Chromium against `crier start --sandbox`: the form is built from the
// API's description, and each refusal of the API — a URL that is not a webhook URL, then a webhook the
// sandbox's Discord does not know — is said under the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumPath, openDashboard, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('connecting a Discord webhook in the dashboard', { skip, timeout: 120_000 }, () => {
  let session: DashboardSession;
  let page: Page;

  before(async () => {
    session = await openDashboard('crier-discord-connect', executable!);
    page = session.page;
    await page.goto(`${session.base}/`);
    await page.getByLabel('API key').fill(session.run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  });
  after(() => session?.close());

  test('the Discord form has the webhook URL field, typed like a password; a malformed URL, then an unknown webhook, are refused under it', async () => {
    await page.goto(`${session.base}/#/accounts`);
    const form = page.getByRole('form', { name: /^Connect Discord with/ });
    await form.waitFor();
    const field = form.getByLabel('Webhook url');
    // The URL holds the webhook's token: typed like a password (the API marks the field writeOnly).
    assert.equal(await field.getAttribute('type'), 'password');
    await field.fill('https://example.com/not-a-webhook');
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.locator('.field-errors', { hasText: 'must be a Discord channel webhook URL' }).waitFor();

    const emulator = session.run.crier.output().match(/curl -s (\S+)\/__emulator\/calls +# [^\n]*\bdiscord\b/)?.[1];
    assert.ok(emulator, 'the sandbox guide names the Discord emulator');
    await field.fill(`${emulator}/api/webhooks/123456789012345678/not-its-token`);
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.locator('.field-errors', { hasText: 'Discord knows no webhook with this id and token' }).waitFor();
    assert.deepEqual(session.pageErrors, []);
  });
});
