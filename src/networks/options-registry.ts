// Every network's platform block (schema and request-time rules), keyed by network id.
import type { NetworkId, NetworkOptions } from './types.ts';
import { options as x } from './x/options.ts';
import { options as threads } from './threads/options.ts';
import { options as linkedin } from './linkedin/options.ts';
import { options as instagram } from './instagram/options.ts';
import { options as bluesky } from './bluesky/options.ts';
import { options as youtube } from './youtube/options.ts';
import { options as facebook } from './facebook/options.ts';
import { options as tiktok } from './tiktok/options.ts';
import { options as googleBusiness } from './google_business/options.ts';
import { options as pinterest } from './pinterest/options.ts';
import { options as vimeo } from './vimeo/options.ts';
import { options as reddit } from './reddit/options.ts';

export const networkOptions: Record<NetworkId, NetworkOptions> = {
  x, threads, linkedin, instagram, bluesky, youtube,
  facebook, tiktok, google_business: googleBusiness, pinterest, vimeo, reddit,
};
