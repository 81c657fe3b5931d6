// Local emulators of the networks Crier publishes to, for tests and `crier start --sandbox`.
export { startXEmulator, DEFAULT_RATE_LIMITS as X_DEFAULT_RATE_LIMITS } from './x/server.ts';
export type { XEmulator, XEmulatorOptions, XMediaView, AddUserInput, ProcessingState, XTweet, XUser } from './x/server.ts';
export { startBlueskyEmulator } from './bluesky/server.ts';
export type { BlueskyEmulator, BlueskyEmulatorOptions, AddAccountInput, AppPassword, StoredRecord } from './bluesky/server.ts';
export type { FaultSpec } from './shared/faults.ts';
export { Clock } from './shared/clock.ts';
