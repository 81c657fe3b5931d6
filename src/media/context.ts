// What the media functions need, built once per database pool from the configuration.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createLocalStorage, type MediaStorage } from './storage.ts';

export interface MediaContext {
  db: Db;
  box: SecretBox;
  storage: MediaStorage;
  publicBaseUrl: string;
  settings: Config['media'];
}

const contexts = new WeakMap<Db, MediaContext>();

export function mediaContext(config: Config, db: Db, box: SecretBox): MediaContext {
  let context = contexts.get(db);
  if (!context) {
    context = { db, box, storage: mediaStorage(config), publicBaseUrl: config.publicBaseUrl, settings: config.media };
    contexts.set(db, context);
  }
  return context;
}

export function mediaStorage(config: Config): MediaStorage {
  return createLocalStorage(path.join(config.dataDir, 'media'));
}

/** The public address of a served file (media or rendition): `<base>/media/<token>/<filename>`. */
export function publicMediaUrl(publicBaseUrl: string, token: string, filename: string): string {
  return `${publicBaseUrl}/media/${token}/${encodeURIComponent(filename)}`;
}

/** The token of a public media URL of this installation, or undefined for any other URL. */
export function tokenOfPublicUrl(publicBaseUrl: string, url: string): string | undefined {
  const prefix = `${publicBaseUrl}/media/`;
  if (!url.startsWith(prefix)) return undefined;
  const token = url.slice(prefix.length).split('/')[0]!;
  return TOKEN.test(token) ? token : undefined;
}

/** 192 random bits: the only thing standing between the public and a file, so unguessable. */
export const newToken = (): string => randomBytes(24).toString('base64url');

export const TOKEN = /^[A-Za-z0-9_-]{32}$/;
