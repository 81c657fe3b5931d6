-- The sandbox's built-in webhook receiver (src/webhooks/inbox.ts): what each delivery to it carried,
-- kept per organization, newest 100 only. Written only in sandbox mode.
CREATE TABLE sandbox_webhook_inbox (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id             bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  webhook_id         bigint NOT NULL,              -- the webhook the delivery was for (kept if it is deleted)
  event_id           uuid NOT NULL,
  received_at        timestamptz NOT NULL DEFAULT now(),
  headers            jsonb NOT NULL,               -- as received, names in lower case
  body               text NOT NULL,                -- the raw body, as received
  signature_verified boolean,                      -- null: the webhook has no secret, nothing is signed
  signature_detail   text NOT NULL
);
CREATE INDEX sandbox_webhook_inbox_org ON sandbox_webhook_inbox (org_id, id DESC);
