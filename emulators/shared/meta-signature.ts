// How Meta signs a webhook delivery, written from Meta's documentation (Webhooks, "Validating
// payloads": X-Hub-Signature-256 is "sha256=" and the HMAC-SHA256 of the payload's bytes under the
// app secret, in hex), not from Crier's verifier: a bug shared by signer and verifier would pass both.
import { createHmac } from 'node:crypto';

export function metaSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
