// Stripe subscriptions drive an organization's subscription_status (and so the 402 gate of every
// /v1 route). Stripe tells us through signed webhooks; this file verifies them and applies the three
// subscription events. An org is found by the subscription's metadata.crier_org_id (set it when
// creating the subscription), else by the customer linked to it (orgs.stripe_customer_id).
import type Stripe from 'stripe';
import type { Queryable } from '../db/pool.ts';
import { RequestError } from '../core/errors.ts';
import { decodeId } from '../core/ids.ts';
import { lazy } from '../lazy.ts';
import type { SubscriptionStatus } from '../orgs/subscription.ts';

/**
 * Stripe's subscription statuses onto the six the API knows. Only `active` opens the API, so the
 * choice among the others is what the 402 message says. `incomplete_expired` (first payment never
 * made) is over for good: canceled. `paused` (trial ended without a payment method) collects
 * nothing until the customer acts: unpaid.
 */
const STATUS_MAP: Record<string, SubscriptionStatus> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  unpaid: 'unpaid',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
  canceled: 'canceled',
  paused: 'unpaid',
};

const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']);

export interface StripeWebhookVerifier {
  /** The event, if `signature` is Stripe's signature of exactly `rawBody`; a 400 RequestError otherwise. */
  verify(rawBody: Buffer, signature: string | undefined): Promise<Stripe.Event>;
}

/** The Stripe library loads with the first event (lazy.ts): most servers never receive one. */
export function createStripeWebhookVerifier(settings: { secretKey: string; webhookSecret: string }): StripeWebhookVerifier {
  const client = lazy('stripe (verifying Stripe webhooks)', async () => {
    const { default: StripeClient } = await import('stripe');
    return new StripeClient(settings.secretKey);
  });
  return {
    async verify(rawBody, signature) {
      if (!signature) throw new RequestError(400, 'Missing Stripe-Signature header', { code: 'invalid_signature' });
      // Outside the try: a library that fails to load is a server error, not a bad signature.
      const stripe = await client();
      try {
        // Also rejects a signature older than five minutes: a captured request cannot be replayed later.
        return stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch {
        throw new RequestError(400, 'Invalid Stripe signature: the body is not what Stripe signed with this endpoint secret, or the signature is too old', { code: 'invalid_signature' });
      }
    },
  };
}

export interface SubscriptionChange {
  subscriptionId: string;
  customerId: string;
  status: SubscriptionStatus;
  /** From metadata.crier_org_id; undefined when absent or not an org id. */
  orgId: number | undefined;
  /** When Stripe created the event: events arrive out of order, older ones must not win. */
  at: Date;
}

/** What a subscription event asks for; undefined for other events and unknown future statuses. */
export function subscriptionChange(event: Stripe.Event): SubscriptionChange | undefined {
  if (!SUBSCRIPTION_EVENTS.has(event.type)) return undefined;
  const subscription = event.data.object as Stripe.Subscription;
  const status = event.type === 'customer.subscription.deleted' ? 'canceled' : STATUS_MAP[subscription.status];
  if (!status) return undefined;
  const customer = subscription.customer;
  return {
    subscriptionId: subscription.id,
    customerId: typeof customer === 'string' ? customer : customer.id,
    status,
    orgId: parseOrgId(subscription.metadata?.crier_org_id),
    at: new Date(event.created * 1000),
  };
}

/** The numeric id or the orgId the API shows, as the CLI accepts. */
function parseOrgId(value: string | undefined): number | undefined {
  if (!value) return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : decodeId(value);
}

export type ApplyOutcome = { applied: true; orgId: number } | { applied: false; reason: 'unknown_org' | 'stale_or_other_subscription' };

/**
 * Sets the org's status from the change, unless a newer event was already applied, or the change is
 * about another subscription than the org's current one and does not activate it (after a plan
 * change, the old subscription's deletion must not lock the org out; a new active one takes over).
 * The customer is linked to the org on first sight, when no other org has it.
 */
export async function applySubscriptionChange(db: Queryable, change: SubscriptionChange): Promise<ApplyOutcome> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE orgs
        SET subscription_status = $1, stripe_subscription_id = $2, stripe_event_at = $4,
            stripe_customer_id = coalesce(stripe_customer_id,
              CASE WHEN NOT EXISTS (SELECT 1 FROM orgs other WHERE other.stripe_customer_id = $3) THEN $3 END)
      WHERE (CASE WHEN $5::bigint IS NOT NULL THEN id = $5::bigint ELSE stripe_customer_id = $3 END)
        AND (stripe_event_at IS NULL OR stripe_event_at <= $4)
        AND (stripe_subscription_id IS NULL OR stripe_subscription_id = $2 OR $1 = 'active')
      RETURNING id`,
    [change.status, change.subscriptionId, change.customerId, change.at, change.orgId ?? null],
  );
  if (rows[0]) return { applied: true, orgId: rows[0].id };
  const known = await db.query('SELECT 1 FROM orgs WHERE (CASE WHEN $2::bigint IS NOT NULL THEN id = $2::bigint ELSE stripe_customer_id = $1 END)', [change.customerId, change.orgId ?? null]);
  return { applied: false, reason: known.rowCount ? 'stale_or_other_subscription' : 'unknown_org' };
}

/** Links an org to its Stripe customer (for an operator command); false when the org does not exist. */
export async function linkStripeCustomer(db: Queryable, orgId: number, customerId: string | null): Promise<boolean> {
  const result = await db.query('UPDATE orgs SET stripe_customer_id = $2 WHERE id = $1', [orgId, customerId]);
  return result.rowCount === 1;
}
