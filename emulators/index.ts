// Local emulators of the networks Crier publishes to, for tests and `crier start --sandbox`.
export { startXEmulator, DEFAULT_RATE_LIMITS as X_DEFAULT_RATE_LIMITS } from './x/server.ts';
export type { XEmulator, XEmulatorOptions, XMediaView, AddUserInput, ProcessingState, XTweet, XUser } from './x/server.ts';
export { startBlueskyEmulator } from './bluesky/server.ts';
export type { BlueskyEmulator, BlueskyEmulatorOptions, AddAccountInput, AppPassword, StoredRecord } from './bluesky/server.ts';
export { startLinkedInEmulator, type LinkedInEmulator, type LinkedInEmulatorOptions } from './linkedin/server.ts';
export { startPinterestEmulator, type PinterestEmulator, type PinterestUser } from './pinterest/server.ts';
export { startGoogleEmulator, type GoogleEmulator, type GoogleEmulatorOptions } from './google/server.ts';
export { startFacebookEmulator, type FacebookEmulator, type FacebookEmulatorOptions } from './facebook/server.ts';
export { startVimeoEmulator, type VimeoEmulator, type VimeoUser } from './vimeo/server.ts';
export { startRedditEmulator, type RedditEmulator, type RedditUser } from './reddit/server.ts';
export { startThreadsEmulator, type ThreadsEmulator, type ThreadsEmulatorOptions, type ThreadsUser } from './threads/server.ts';
export { startTikTokEmulator, type TikTokEmulator, type TikTokEmulatorOptions, type TikTokUser } from './tiktok/server.ts';
export { startTelegramEmulator, type TelegramEmulator, type TelegramEmulatorOptions } from './telegram/server.ts';
export { startDiscordEmulator, type DiscordEmulator, type DiscordEmulatorOptions } from './discord/server.ts';
export { startMastodonEmulator, type MastodonEmulator, type MastodonEmulatorOptions } from './mastodon/server.ts';
export type { FaultSpec } from './shared/faults.ts';
export { Clock } from './shared/clock.ts';
