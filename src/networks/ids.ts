// The networks' ids, in the registry's order: the one list of their names. Each is added to the
// core's NetworkIds (src/core/network-id.ts), which makes `NetworkId` their union everywhere.

export const NETWORKS = [
  'x', 'threads', 'linkedin', 'instagram', 'bluesky', 'youtube',
  'facebook', 'tiktok', 'google_business', 'pinterest', 'vimeo', 'reddit',
  'telegram',
  'discord',
  'mastodon',
] as const;

type RegisteredId = (typeof NETWORKS)[number];

declare module '../core/network-id.ts' {
  interface NetworkIds extends Record<RegisteredId, true> {}
}

export function isNetworkId(value: unknown): value is RegisteredId {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}
