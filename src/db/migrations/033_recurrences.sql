-- Recurring posts (issue 34): a post body and a rule (an interval, or weekly days at a local time in
-- an IANA zone) with an optional count and end. The recurrence runner (src/recurrences/runner.ts)
-- turns each occurrence into an ordinary post through the create path, one occurrence ahead: the
-- next occurrence is created when the one before it falls due (the first at once), and never more
-- than the 30-day scheduling window before its time.
--
-- `next_index`/`next_at` name the occurrence to create next, `materialize_at` when to create it; the
-- runner locks a due row, writes the post and its `recurrence_occurrences` row, and moves the row on,
-- all in one transaction. The occurrences' primary key (recurrence, index) makes a second creation of
-- an occurrence (two runners, a retry after a crash) impossible, not just unlikely.
CREATE TABLE recurrences (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id          bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- The post body of every occurrence (accounts as encoded ids, content or containers, network blocks).
  post            jsonb NOT NULL,
  -- Alternative contents ({content} or {containers}), cycled in order with the body's own.
  variations      jsonb NOT NULL DEFAULT '[]',
  -- {"every": {"days": 2, "hours": 0}} or {"weekly": {"days": [...], "time": "HH:MM", "timeZone": "Europe/Paris"}}.
  rule            jsonb NOT NULL,
  start_at        timestamptz NOT NULL,
  occurrence_count integer CHECK (occurrence_count BETWEEN 1 AND 1000),
  until_at        timestamptz,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'completed')),
  next_index      integer NOT NULL DEFAULT 0,
  next_at         timestamptz,
  materialize_at  timestamptz,
  -- Posts created so far: which content the next one takes (created % (1 + variations)).
  created_posts   integer NOT NULL DEFAULT 0,
  -- Occurrences whose time passed while paused or with no runner: skipped, never published late.
  skipped         integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'completed') = (next_at IS NULL))
);
CREATE INDEX recurrences_org ON recurrences (org_id, id);
CREATE INDEX recurrences_due ON recurrences (materialize_at) WHERE status = 'active';

-- One row per occurrence the runner reached: the post it created, or the reason it could create none
-- (the accounts no longer resolve, a network rule refuses the content): each occurrence its own outcome.
CREATE TABLE recurrence_occurrences (
  recurrence_id    bigint NOT NULL REFERENCES recurrences(id) ON DELETE CASCADE,
  occurrence_index integer NOT NULL,
  org_id           bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  scheduled_at     timestamptz NOT NULL,
  -- Which content: 0 the body's own, n the n-th variation. NULL when no post was created.
  variation        integer,
  -- NULL when refused, or once the post's record was deleted (DELETE /v1/posts/:id of a finished post).
  post_id          bigint REFERENCES posts(id) ON DELETE SET NULL,
  refused          text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (recurrence_id, occurrence_index)
);
CREATE INDEX recurrence_occurrences_post ON recurrence_occurrences (post_id) WHERE post_id IS NOT NULL;
