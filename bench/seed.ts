// What the create and rate-limit figures run against: one organization with two connected accounts
// (x and bluesky). The list figures seed orgs of their own (bench/lists.ts).
import type { Db } from '../src/db/pool.ts';
import { upsertSocialAccount } from '../src/accounts/social-accounts.ts';
import { encodeId } from '../src/core/ids.ts';
import type { NetworkId } from '../src/core/network-id.ts';
import { createOrg } from '../src/orgs/orgs.ts';
import type { SecretBox } from '../src/security/crypto.ts';

export interface BenchAccount {
  rawId: number;
  /** The public id the API takes in `accounts` and `social_account_id`. */
  id: string;
}

export interface Fixture {
  orgId: number;
  apiKey: string;
  x: BenchAccount;
  bluesky: BenchAccount;
  /** Carried by the bluesky account only, so the tenant filter selects a subset of posts. */
  tenantId: string;
}

export const BENCH_TENANT = 'tenant-bench';

/** The org (created through Crier's own code, so its API key works) and its two accounts. */
export async function createFixture(db: Db, box: SecretBox): Promise<Fixture> {
  const org = await createOrg(db, 'bench');
  const account = async (network: NetworkId, username: string, tenantId: string | null): Promise<BenchAccount> => {
    const rawId = await upsertSocialAccount(db, box, {
      orgId: org.orgId,
      network,
      username,
      networkUniqueId: `bench-${network}`,
      tenantId,
      // Tokens make the rows look like real connected accounts; nothing is published (no worker runs).
      accessToken: `bench-access-${network}`,
      refreshToken: `bench-refresh-${network}`,
    });
    return { rawId, id: encodeId(rawId) };
  };
  return {
    orgId: org.orgId,
    apiKey: org.apiKey,
    x: await account('x', 'bench_x', null),
    bluesky: await account('bluesky', 'bench.bsky.social', BENCH_TENANT),
    tenantId: BENCH_TENANT,
  };
}
