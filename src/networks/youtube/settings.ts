// YouTube's settings, read once at start (loadConfig → config.networks.youtube):
//
//   CRIER_YOUTUBE_BASE_URL         one origin for every Google host (the emulator); unset: Google's.
//   CRIER_YOUTUBE_CHUNK_BYTES      bytes per upload request, rounded down to a multiple of 256 KiB
//                                  (Google's rule for every chunk but the last); default 8 MiB.
//   The managed-key daily pool (spec rule 7; accounts connected through the operator's app only):
//   CRIER_YOUTUBE_POOL_UNITS       the Cloud project's daily quota, in units; default 10,000.
//   CRIER_YOUTUBE_POOL_ORG_SHARE   the percentage of it one organization may spend a day; default 100.
//   CRIER_YOUTUBE_POOL_PACING      `off` releases the whole budget at midnight Pacific; default `on`:
//                                  released = burst + budget × elapsed fraction of the Pacific day.
//   CRIER_YOUTUBE_POOL_BURST       units released at once at midnight when pacing; default 3,200
//                                  (two uploads).
//   CRIER_YOUTUBE_UPLOAD_COST      videos.insert, default 1,600 (Google's classic quota table);
//   CRIER_YOUTUBE_THUMBNAIL_COST   thumbnails.set, default 50;
//   CRIER_YOUTUBE_COMMENT_COST     commentThreads.insert, default 50;
//   CRIER_YOUTUBE_LIST_COST        videos.list (a processing poll), default 1.
import type { BaseUrlSettings } from '../base-url.ts';
import type { NetworkConfig } from '../contract.ts';

export const CHUNK_UNIT = 256 * 1024;

export interface PoolCosts {
  upload: number;
  thumbnail: number;
  comment: number;
  list: number;
}

export interface PoolSettings {
  budgetUnits: number;
  /** 1-100. */
  orgSharePercent: number;
  pacing: boolean;
  burstUnits: number;
  costs: PoolCosts;
}

export interface YoutubeSettings extends BaseUrlSettings {
  chunkBytes: number;
  pool: PoolSettings;
}

const VARIABLES = {
  baseUrl: 'CRIER_YOUTUBE_BASE_URL',
  chunk: 'CRIER_YOUTUBE_CHUNK_BYTES',
  units: 'CRIER_YOUTUBE_POOL_UNITS',
  share: 'CRIER_YOUTUBE_POOL_ORG_SHARE',
  pacing: 'CRIER_YOUTUBE_POOL_PACING',
  burst: 'CRIER_YOUTUBE_POOL_BURST',
  upload: 'CRIER_YOUTUBE_UPLOAD_COST',
  thumbnail: 'CRIER_YOUTUBE_THUMBNAIL_COST',
  comment: 'CRIER_YOUTUBE_COMMENT_COST',
  list: 'CRIER_YOUTUBE_LIST_COST',
} as const;

export const config: NetworkConfig<YoutubeSettings> = {
  variables: Object.values(VARIABLES),
  read(env) {
    const chunk = env.integer(VARIABLES.chunk, 8 * 1024 * 1024, CHUNK_UNIT);
    return {
      baseUrl: env.optionalUrl(VARIABLES.baseUrl),
      chunkBytes: Math.floor(chunk / CHUNK_UNIT) * CHUNK_UNIT,
      pool: {
        budgetUnits: env.integer(VARIABLES.units, 10_000, 1),
        orgSharePercent: Math.min(100, env.integer(VARIABLES.share, 100, 1)),
        // Anything but `off` keeps pacing on: a typo must not release the whole day at once.
        pacing: env.text(VARIABLES.pacing)?.toLowerCase() !== 'off',
        burstUnits: env.integer(VARIABLES.burst, 3_200, 0),
        costs: {
          upload: env.integer(VARIABLES.upload, 1_600, 0),
          thumbnail: env.integer(VARIABLES.thumbnail, 50, 0),
          comment: env.integer(VARIABLES.comment, 50, 0),
          list: env.integer(VARIABLES.list, 1, 0),
        },
      },
    };
  },
};
