-- Posting queues (issue 34): one per social account, a weekly schedule of time slots in an IANA time
-- zone. `POST /v1/posts` with `"scheduledAt": "next-free-slot"` takes the next slot no live post of
-- the targeted accounts holds. Which slots are taken is not stored: it is read from the posts
-- themselves (a non-cancelled, unpublished post of the account scheduled exactly at the slot), so
-- cancelling, rescheduling or publishing a post frees its slot with nothing to keep in step.
--
-- A queue belongs to an account, and so to the account's tenant (social_accounts.tenant_id): a tenant
-- has as many queues as accounts, and an account one queue at most.
CREATE TABLE queues (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  account_id  bigint NOT NULL REFERENCES social_accounts(id) ON DELETE CASCADE,
  -- An IANA name as Intl resolves it (Europe/Paris, UTC), checked by the API before it is stored.
  time_zone   text NOT NULL,
  -- Minutes from Monday 00:00 local time (0..10079), ascending and distinct: Tuesday 09:30 is 2010.
  slots       integer[] NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id),
  CHECK (cardinality(slots) BETWEEN 1 AND 100)
);
CREATE INDEX queues_org ON queues (org_id, id);

