// GET /api/v2/instance (https://docs.joinmastodon.org/methods/instance/#v2): the Instance entity,
// public (no token needed), its `configuration` holding the limits clients judge statuses with.
import type { Reply } from '../../shared/http.ts';
import { instanceEntity } from '../entities.ts';
import type { MastodonWorld } from '../state.ts';

export const instance = (world: MastodonWorld): Reply => ({ status: 200, body: instanceEntity(world) });
