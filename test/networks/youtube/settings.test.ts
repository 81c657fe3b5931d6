// The managed-key pool's settings as an operator sets them: Google's current quota by default (100
// videos.insert calls and 10,000 units a Pacific day, an upload costing no units), and every override.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import { NETWORK_LIST } from '../../../src/networks/registry.ts';
import type { YoutubeSettings } from '../../../src/networks/youtube/settings.ts';

const poolOf = (env: Record<string, string>) => (loadConfig(env, NETWORK_LIST).networks.youtube as YoutubeSettings).pool;

describe('the YouTube pool settings', () => {
  test('by default, Google\'s current buckets: 100 uploads and 10,000 units a day, an upload costing no units', () => {
    assert.deepEqual(poolOf({}), {
      budgetUploads: 100, budgetUnits: 10_000, orgSharePercent: 100, pacing: true, burstUploads: 10, burstUnits: 3_200,
      costs: { upload: 0, thumbnail: 50, comment: 50, list: 1 },
    });
  });

  test('every variable overrides its figure; 1,600 units an upload and a large uploads bucket model the old table', () => {
    assert.deepEqual(poolOf({
      CRIER_YOUTUBE_POOL_UPLOADS: '100000', CRIER_YOUTUBE_POOL_UNITS: '20000', CRIER_YOUTUBE_POOL_ORG_SHARE: '25', CRIER_YOUTUBE_POOL_PACING: 'off',
      CRIER_YOUTUBE_POOL_UPLOAD_BURST: '3', CRIER_YOUTUBE_POOL_BURST: '500', CRIER_YOUTUBE_UPLOAD_COST: '1600', CRIER_YOUTUBE_THUMBNAIL_COST: '60',
      CRIER_YOUTUBE_COMMENT_COST: '40', CRIER_YOUTUBE_LIST_COST: '2',
    }), {
      budgetUploads: 100_000, budgetUnits: 20_000, orgSharePercent: 25, pacing: false, burstUploads: 3, burstUnits: 500,
      costs: { upload: 1600, thumbnail: 60, comment: 40, list: 2 },
    });
  });

  test('a day without uploads is refused at start, naming the variable', () => {
    assert.throws(() => poolOf({ CRIER_YOUTUBE_POOL_UPLOADS: '0' }), /CRIER_YOUTUBE_POOL_UPLOADS/);
  });
});
