// An organization's subscription status (the spec's gate: anything but `active` is answered 402),
// which its API keys carry with them (api-keys.ts KeyOwner) and Stripe's webhooks change.
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
