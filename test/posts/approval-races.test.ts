// Approval decisions racing each other and a cancel, as concurrent requests on their own connections:
// one conditional UPDATE of the post decides (posts/manage.ts decideApproval), so exactly one decision
// takes effect, the loser is a 409, and the post's destinations and events agree with the winner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

const ROUNDS = 15;

let server: TestServer;
let org: TestOrg;
let account: TestAccount;
let approver: string;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
  approver = (await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'reviewer', role: 'approver' } })).body.data.key;
  assert.equal((await server.request('PATCH', '/v1/settings', { key: org.key, body: { requireApproval: true } })).status, 200);
});
after(() => server.close());

/** Pending posts, an hour ahead (no worker runs here: what matters is what is due). */
async function pendingPosts(n: number): Promise<string[]> {
  const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
  const created = await Promise.all(Array.from({ length: n }, (_, i) =>
    server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: `race ${i}`, scheduledAt } })));
  return created.map((res) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.post.id as string;
  });
}

async function stateOf(id: string) {
  const { rows } = await server.db.query<{ approval: string | null; statuses: string[]; due: number; decisions: string[] }>(
    `SELECT p.approval, array(SELECT status FROM targets WHERE post_id = p.id) AS statuses,
            (SELECT count(*)::int FROM targets WHERE post_id = p.id AND due_at IS NOT NULL) AS due,
            array(SELECT type FROM events WHERE org_id = p.org_id AND type IN ('post.approved', 'post.rejected') AND data->>'postId' = $2) AS decisions
       FROM posts p WHERE p.id = $1`,
    [decodeId(id), id],
  );
  return rows[0];
}

describe('racing decisions', () => {
  test('approve against reject: exactly one wins, the other is a 409, and the post and events follow the winner', async (t) => {
    const ids = await pendingPosts(ROUNDS);
    const wins = { approve: 0, reject: 0 };
    for (const [i, id] of ids.entries()) {
      // Alternate who is sent first, so that each side gets its chance to win.
      const calls = [
        () => server.request('POST', `/v1/posts/${id}/approve`, { key: approver }),
        () => server.request('POST', `/v1/posts/${id}/reject`, { key: org.key, body: { reason: 'racing' } }),
      ];
      const [approve, reject] = i % 2 ? await Promise.all(calls.map((c) => c())) : (await Promise.all([calls[1]!(), calls[0]!()])).reverse();
      assert.deepEqual([approve!.status, reject!.status].sort(), [200, 409], `${approve!.status} ${reject!.status}`);
      const loser = approve!.status === 409 ? approve! : reject!;
      assert.equal(loser.body.code, 'post_not_pending_approval');
      const state = (await stateOf(id))!;
      if (approve!.status === 200) {
        wins.approve += 1;
        assert.deepEqual(state, { approval: 'approved', statuses: ['pending'], due: 1, decisions: ['post.approved'] });
      } else {
        wins.reject += 1;
        assert.deepEqual(state, { approval: 'rejected', statuses: ['rejected'], due: 0, decisions: ['post.rejected'] });
      }
    }
    assert.equal(wins.approve + wins.reject, ROUNDS);
    t.diagnostic(`approve won ${wins.approve}, reject won ${wins.reject} of ${ROUNDS}`);
  });

  test('approve against cancel: a cancelled post is never approved; an approval that came first is cancelled like any queued post', async (t) => {
    const ids = await pendingPosts(ROUNDS);
    let approvedFirst = 0;
    for (const id of ids) {
      const [approve, cancel] = await Promise.all([
        server.request('POST', `/v1/posts/${id}/approve`, { key: approver }),
        server.request('DELETE', `/v1/posts/${id}`, { key: org.key }),
      ]);
      assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
      assert.equal(cancel.body.outcome, 'cancelled');
      const state = (await stateOf(id))!;
      assert.deepEqual(state.statuses, ['cancelled']);
      assert.equal(state.due, 0, 'nothing of a cancelled post is due, whoever came first');
      if (approve.status === 409) {
        assert.equal(approve.body.code, 'post_not_pending_approval');
        assert.deepEqual(state.decisions, [], 'the cancel won: no approval happened');
      } else {
        assert.equal(approve.status, 200);
        assert.deepEqual(state.decisions, ['post.approved'], 'the approval won, then the cancel took the queued post back');
        approvedFirst += 1;
      }
    }
    t.diagnostic(`approval first ${approvedFirst}, cancel first ${ROUNDS - approvedFirst} of ${ROUNDS}`);
  });

  test('reject against cancel: either the rejection lands first (the cancel then deletes the final record) or the rejection is a 409', async (t) => {
    const ids = await pendingPosts(ROUNDS);
    let rejectedFirst = 0;
    for (const id of ids) {
      const [reject, cancel] = await Promise.all([
        server.request('POST', `/v1/posts/${id}/reject`, { key: approver }),
        server.request('DELETE', `/v1/posts/${id}`, { key: org.key }),
      ]);
      assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
      if (reject.status === 409) {
        assert.equal(cancel.body.outcome, 'cancelled');
        assert.deepEqual((await stateOf(id))!.decisions, []);
      } else {
        assert.equal(reject.status, 200);
        assert.equal(cancel.body.outcome, 'record_deleted');
        assert.equal(await stateOf(id), undefined, 'the rejected post is gone');
        rejectedFirst += 1;
      }
    }
    t.diagnostic(`rejection first ${rejectedFirst}, cancel first ${ROUNDS - rejectedFirst} of ${ROUNDS}`);
  });
});
