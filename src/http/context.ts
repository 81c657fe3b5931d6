// What route handlers need, passed explicitly rather than through globals.
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { Boss } from '../queue/boss.ts';
import type { SecretBox } from '../security/crypto.ts';

export interface AppContext {
  config: Config;
  db: Db;
  boss: Boss;
  box: SecretBox;
}
