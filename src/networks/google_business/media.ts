// Google Business Profile fetches a post's media itself (media[] items by sourceUrl). A post takes one
// JPG or PNG photo and no video: localPosts answer a VIDEO item with a bare 500, as API users report,
// and every example Google gives is a photo (youtube-tiktok-gbp-pinterest-vimeo-reddit.md §3.3). The
// request rules refuse a video for it (options.ts), so it has no video profile.
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

export const media: NetworkMedia = { delivery: 'public_url', profiles: {}, videoProfile: () => undefined, judge, measure };
