// Opening a claim's account (claim.ts): an account opened by an earlier claim is reused only while
// its row still holds the same sealed secrets and fields, and only under the same secret box.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { claimsFromRows } from '../../src/publishing/claim.ts';
import type { ClaimRow } from '../../src/publishing/queue.ts';
import { createSecretBox, type SecretBox } from '../../src/security/crypto.ts';

const ACCOUNT = 4242;

function row(box: SecretBox, accessToken: string, overrides: Partial<ClaimRow> = {}): ClaimRow {
  return {
    target_id: 1, org_id: 1, post_id: 1, attempt_id: 1, attempt_count: 1, refusals: 0, previous_attempt_id: null, checkpoint: null, after_wait: null,
    post_account_ids: [ACCOUNT], network_options: null, process_media: false,
    account_id: ACCOUNT, network: 'x', username: 'someone', network_unique_id: '99', service_url: null, is_active: true,
    access_token_enc: box.encrypt(accessToken, `social_accounts:${ACCOUNT}:access`), refresh_token_enc: null, credential_enc: null,
    token_expires_at: null, managed_app: false, containers: [{ content: 'hello', media: [] }], next_due_ms: null,
    ...overrides,
  };
}

describe('opening claimed accounts', () => {
  test('a token replaced in the row is opened afresh, not served from an earlier claim', () => {
    const box = createSecretBox(randomBytes(32));
    const [first] = claimsFromRows(box, [row(box, 'old-token')]);
    assert.equal(first!.account.accessToken, 'old-token');
    const [again] = claimsFromRows(box, [row(box, 'new-token')]);
    assert.equal(again!.account.accessToken, 'new-token');
  });

  test('a renamed account carries its new name', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = row(box, 'token');
    claimsFromRows(box, [sealed]);
    const [renamed] = claimsFromRows(box, [{ ...sealed, username: 'renamed' }]);
    assert.equal(renamed!.account.username, 'renamed');
  });

  test('the same sealed bytes under another key are unreadable, whatever was opened before', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = row(box, 'token');
    assert.equal(claimsFromRows(box, [sealed])[0]!.unreadable, undefined);
    const [other] = claimsFromRows(createSecretBox(randomBytes(32)), [sealed]);
    assert.match(other!.unreadable ?? '', /another key/);
    assert.equal(other!.account.accessToken, null);
  });

  test('claims of one account get their own copies of its credentials', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = row(box, 'token');
    const [a, b] = claimsFromRows(box, [sealed, { ...sealed, target_id: 2 }]);
    assert.notEqual(a!.account, b!.account);
    a!.account.accessToken = 'changed by one publish';
    assert.equal(b!.account.accessToken, 'token');
    assert.equal(claimsFromRows(box, [sealed])[0]!.account.accessToken, 'token');
  });
});
