// Crier publishes only text and link posts to Reddit: containers with media are refused at request
// time (options.ts), so there is no video profile. Reddit's own media flow is an upload.
import type { NetworkMedia } from '../contract.ts';
import { judge, measure } from './shape.ts';

export const media: NetworkMedia = { delivery: 'upload', profiles: {}, videoProfile: () => undefined, judge, measure };
