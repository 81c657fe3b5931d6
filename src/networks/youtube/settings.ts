// YouTube's settings, read once at start (loadConfig → config.networks.youtube):
//
//   CRIER_YOUTUBE_BASE_URL         one origin for every Google host (the emulator); unset: Google's.
//   CRIER_YOUTUBE_CHUNK_BYTES      bytes per upload request, rounded down to a multiple of 256 KiB
//                                  (Google's rule for every chunk but the last); default 8 MiB.
//   The managed-key daily pool (spec rule 7; accounts connected through the operator's app only).
//   Google's quota table (developers.google.com/youtube/v3/determine_quota_cost, since the
//   2026-06-01 revision) gives a project two daily buckets: videos.insert calls in one of their own
//   (100 a day, 1 each), and 10,000 units for every other call.
//   CRIER_YOUTUBE_POOL_UPLOADS     the project's daily videos.insert calls; default 100.
//   CRIER_YOUTUBE_POOL_UNITS       the project's daily units for the other calls; default 10,000.
//   CRIER_YOUTUBE_POOL_ORG_SHARE   the percentage of each that one organization may spend a day; default 100.
//   CRIER_YOUTUBE_POOL_PACING      `off` releases the whole day at midnight Pacific; default `on`:
//                                  released = burst + budget × elapsed fraction of the Pacific day.
//   CRIER_YOUTUBE_POOL_UPLOAD_BURST  uploads released at once at midnight when pacing; default 10.
//   CRIER_YOUTUBE_POOL_BURST       units released at once at midnight when pacing; default 3,200.
//   What each call costs the units bucket:
//   CRIER_YOUTUBE_UPLOAD_COST      an upload, besides its call in the uploads bucket; default 0
//                                  (1,600 models a project still on Google's old single pool);
//   CRIER_YOUTUBE_THUMBNAIL_COST   thumbnails.set, default 50;
//   CRIER_YOUTUBE_COMMENT_COST     commentThreads.insert, default 50;
//   CRIER_YOUTUBE_LIST_COST        videos.list (a processing poll), default 1.
import type { BaseUrlSettings } from '../base-url.ts';
import type { NetworkConfig } from '../contract.ts';

export const CHUNK_UNIT = 256 * 1024;

/** Units of the units bucket each call costs (an upload: besides its own call in the uploads bucket). */
export interface PoolCosts {
  upload: number;
  thumbnail: number;
  comment: number;
  list: number;
}

export interface PoolSettings {
  /** videos.insert calls a Pacific day (their own bucket). */
  budgetUploads: number;
  /** Units a Pacific day for every other call. */
  budgetUnits: number;
  /** 1-100. */
  orgSharePercent: number;
  pacing: boolean;
  burstUploads: number;
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
  uploads: 'CRIER_YOUTUBE_POOL_UPLOADS',
  units: 'CRIER_YOUTUBE_POOL_UNITS',
  share: 'CRIER_YOUTUBE_POOL_ORG_SHARE',
  pacing: 'CRIER_YOUTUBE_POOL_PACING',
  uploadBurst: 'CRIER_YOUTUBE_POOL_UPLOAD_BURST',
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
        budgetUploads: env.integer(VARIABLES.uploads, 100, 1),
        budgetUnits: env.integer(VARIABLES.units, 10_000, 1),
        orgSharePercent: Math.min(100, env.integer(VARIABLES.share, 100, 1)),
        // Anything but `off` keeps pacing on: a typo must not release the whole day at once.
        pacing: env.text(VARIABLES.pacing)?.toLowerCase() !== 'off',
        burstUploads: env.integer(VARIABLES.uploadBurst, 10, 0),
        burstUnits: env.integer(VARIABLES.burst, 3_200, 0),
        costs: {
          upload: env.integer(VARIABLES.upload, 0, 0),
          thumbnail: env.integer(VARIABLES.thumbnail, 50, 0),
          comment: env.integer(VARIABLES.comment, 50, 0),
          list: env.integer(VARIABLES.list, 1, 0),
        },
      },
    };
  },
};
