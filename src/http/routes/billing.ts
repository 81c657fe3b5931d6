// POST /billing/stripe/webhook: Stripe's subscription events, outside /v1 and without an API key (the
// Stripe-Signature header authenticates the call). Without Stripe configured it answers 404.
import type { FastifyInstance } from 'fastify';
import { applySubscriptionChange, createStripeWebhookVerifier, subscriptionChange } from '../../billing/stripe.ts';
import { RequestError } from '../../errors.ts';
import type { AppContext } from '../context.ts';

export function billingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const verifier = ctx.config.stripe && createStripeWebhookVerifier(ctx.config.stripe);
  // Own scope: the signature covers the exact bytes Stripe sent, so this route keeps the raw body
  // instead of the JSON parser's object (re-serialising would change the bytes).
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/billing/stripe/webhook', { schema: { summary: 'Stripe webhook (subscription events)', tags: ['billing'], security: [], hide: !verifier } }, async (request) => {
      if (!verifier) throw new RequestError(404, 'Stripe billing is not enabled on this server', { code: 'not_found' });
      if (!Buffer.isBuffer(request.body)) throw new RequestError(400, 'Send the event exactly as Stripe does (a JSON body)', { code: 'bad_request' });
      const event = verifier.verify(request.body, request.headers['stripe-signature'] as string | undefined);
      const change = subscriptionChange(event);
      // Every verified event gets a 2xx, applied or not: a non-2xx makes Stripe retry for days.
      if (!change) return { received: true, applied: false };
      const outcome = await applySubscriptionChange(ctx.db, change);
      request.log[outcome.applied ? 'info' : 'warn']({ stripeEvent: event.id, type: event.type, ...change, ...outcome }, 'Stripe subscription event');
      return { received: true, applied: outcome.applied };
    });
  });
}
