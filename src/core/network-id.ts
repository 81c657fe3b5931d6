// A network's id as the rest of Crier sees it. The core does not know which networks
// exist: the network folder's registry adds each id to `NetworkIds` (src/networks/ids.ts, by
// declaration merging, the way Fastify lets a plug-in extend its request type), so `NetworkId` is the
// union of the registered ids wherever the whole program is compiled, and nothing outside
// src/networks/ names one.

/** Filled by src/networks/ids.ts: one key per registered network. */
export interface NetworkIds {}

export type NetworkId = keyof NetworkIds & string;
