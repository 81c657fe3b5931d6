// Outside /v1 and without an API key:
// - GET /billing: the page the 402 answer's default billingUrl points at. Without a key it cannot tell
//   whose subscription is meant, so it explains the gate and how the status changes on this server.
// - POST /billing/stripe/webhook: Stripe's subscription events (the Stripe-Signature header
//   authenticates the call). Without Stripe configured it answers 404.
import type { FastifyInstance } from 'fastify';
import { applySubscriptionChange, createStripeWebhookVerifier, subscriptionChange } from '../../billing/stripe.ts';
import { RequestError } from '../../core/errors.ts';
import type { AppContext } from '../context.ts';

export function billingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const page = billingPage(ctx.config.stripe !== undefined);
  app.get('/billing', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));

  const verifier = ctx.config.stripe && createStripeWebhookVerifier(ctx.config.stripe);
  // Own scope: the signature covers the exact bytes Stripe sent, so this route keeps the raw body
  // instead of the JSON parser's object (re-serialising would change the bytes).
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/billing/stripe/webhook', { schema: { summary: 'Stripe webhook (subscription events)', tags: ['billing'], security: [], hide: !verifier } }, async (request) => {
      if (!verifier) throw new RequestError(404, 'Stripe billing is not enabled on this server', { code: 'not_found' });
      if (!Buffer.isBuffer(request.body)) throw new RequestError(400, 'Send the event exactly as Stripe does (a JSON body)', { code: 'bad_request' });
      const event = await verifier.verify(request.body, request.headers['stripe-signature'] as string | undefined);
      const change = subscriptionChange(event);
      // Every verified event gets a 2xx, applied or not: a non-2xx makes Stripe retry for days.
      if (!change) return { received: true, applied: false };
      const outcome = await applySubscriptionChange(ctx.db, change);
      request.log[outcome.applied ? 'info' : 'warn']({ stripeEvent: event.id, type: event.type, ...change, ...outcome }, 'Stripe subscription event');
      return { received: true, applied: outcome.applied };
    });
  });
}

function billingPage(stripe: boolean): string {
  const howItChanges = stripe
    ? `<p>On this server the status follows the organization's <strong>Stripe</strong> subscription: once the
  subscription is paid or renewed in Stripe, Stripe tells Crier and access returns. The server's operator
  can also set it by hand with <code>crier org subscription &lt;org&gt; active</code>.</p>`
    : `<p>On this server the operator sets the status: <code>crier org subscription &lt;org&gt; active</code>
  (<code>&lt;org&gt;</code> is the organization's id). Ask whoever runs this Crier server.</p>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Crier: subscription</title></head>
<body>
<h1>Subscription</h1>
<p>Crier answered <code>402 subscription_inactive</code> because the subscription of the organization that
owns the API key is not <code>active</code>. Every status other than <code>active</code>
(<code>trialing</code>, <code>past_due</code>, <code>unpaid</code>, <code>incomplete</code>,
<code>canceled</code>) closes every <code>/v1</code> endpoint to the organization's keys; the error
message of the 402 names the current status.</p>
${howItChanges}
<p>Nothing else is needed: the very next request after the status becomes <code>active</code> is served.</p>
</body>
</html>
`;
}
