// Retention: uploads never confirmed go when their upload window closes, confirmed media and
// renditions when their retention ends (CRIER_MEDIA_RETENTION_DAYS, 60 by default); rows first,
// then files. Usage records stay: they are the bill.
import type { Logger } from 'pino';
import { every, type Scheduled } from '../background/schedule.ts';
import type { Config } from '../config.ts';
import { withTransaction, type Db } from '../db/pool.ts';
import { mediaStorage } from './context.ts';
import { removeFiles } from './library.ts';
import type { MediaStorage } from './storage.ts';

const BATCH = 500;
const INTERVAL_MS = 15 * 60 * 1000;

export interface Purged {
  media: number;
  renditions: number;
}

export async function purgeExpiredMedia(db: Db, storage: MediaStorage): Promise<Purged> {
  const purged: Purged = { media: 0, renditions: 0 };
  for (;;) {
    const batch = await purgeBatch(db);
    await removeFiles({ storage }, batch.keys);
    purged.media += batch.media;
    purged.renditions += batch.renditions;
    if (!batch.more) return purged;
  }
}

interface Batch extends Purged {
  keys: (string | null)[];
  /** A full batch was taken: there may be more. */
  more: boolean;
}

async function purgeBatch(db: Db): Promise<Batch> {
  return withTransaction(db, async (tx) => {
    const media = await tx.query<{ id: number; storage_key: string | null }>(
      `SELECT id, storage_key FROM media WHERE expires_at <= now() ORDER BY expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
    );
    const ids = media.rows.map((m) => m.id);
    // Every rendition of the media going now (else the cascade would take them without their files),
    // plus a batch of renditions whose own retention ended.
    const ofMedia = await tx.query<{ storage_key: string }>('DELETE FROM renditions WHERE media_id = ANY($1::bigint[]) RETURNING storage_key', [ids]);
    const expired = await tx.query<{ storage_key: string }>(
      `DELETE FROM renditions WHERE id IN (
         SELECT id FROM renditions WHERE expires_at <= now() ORDER BY expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
       ) RETURNING storage_key`,
    );
    await tx.query('DELETE FROM media WHERE id = ANY($1::bigint[])', [ids]);
    const renditions = [...ofMedia.rows, ...expired.rows];
    return {
      media: ids.length,
      renditions: renditions.length,
      keys: [...media.rows, ...renditions].map((r) => r.storage_key),
      more: ids.length === BATCH || expired.rows.length === BATCH,
    };
  });
}

/** Runs the purge now and every 15 minutes, in each worker process (SKIP LOCKED lets them share). */
export function startMediaMaintenance(config: Config, db: Db, logger: Logger): Scheduled {
  const storage = mediaStorage(config);
  return every(INTERVAL_MS, 'media maintenance', async () => {
    const purged = await purgeExpiredMedia(db, storage);
    if (purged.media || purged.renditions) logger.info(purged, 'expired media removed');
  }, logger);
}
