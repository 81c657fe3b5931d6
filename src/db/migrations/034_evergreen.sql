-- Evergreen collections (issue 34): a pool of post bodies (items) re-shared on the accounts' queue
-- slots ("next-free-slot") or on a recurrence rule (an interval, or weekly days at a local time), an
-- item never reused before `min_gap_days` have passed since its last turn. The evergreen runner
-- (src/evergreen/runner.ts) creates one post ahead through the create path: the next post when the one
-- before it falls due.
--
-- Exactly once, as for recurrences: the runner locks a due collection row (FOR UPDATE SKIP LOCKED),
-- picks the item, writes the post, its `evergreen_posts` row (primary key: collection, run) and the
-- item's use, and moves the collection on, all in one transaction.
CREATE TABLE evergreen_collections (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id          bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- The accounts every item's post goes to, as the encoded ids they resolved to.
  accounts        jsonb NOT NULL,
  -- NULL: each post takes the accounts' next free queue slot. Otherwise a recurrence rule
  -- ({"every": {...}} or {"weekly": {...}}, src/recurrences/rule.ts) counted from start_at.
  rule            jsonb,
  start_at        timestamptz,
  min_gap_days    integer NOT NULL CHECK (min_gap_days BETWEEN 0 AND 3650),
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  -- A rule's occurrence to fill next (its index and time); both NULL for a queue collection.
  next_index      integer NOT NULL DEFAULT 0,
  next_at         timestamptz,
  -- When the runner looks next; NULL: it waits for an item to be added.
  materialize_at  timestamptz,
  -- Turns taken so far (a post, or the reason there is none): the next turn's number.
  runs            integer NOT NULL DEFAULT 0,
  -- A rule's occurrences passed over: reached more than an hour late, or with no item eligible.
  skipped         integer NOT NULL DEFAULT 0,
  -- Why the runner is waiting (no item eligible yet, no free queue slot); NULL when it is not.
  waiting         text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((rule IS NULL) = (start_at IS NULL)),
  CHECK (rule IS NOT NULL OR next_at IS NULL)
);
CREATE INDEX evergreen_collections_org ON evergreen_collections (org_id, id);
CREATE INDEX evergreen_collections_due ON evergreen_collections (materialize_at) WHERE status = 'active';

CREATE TABLE evergreen_items (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  collection_id   bigint NOT NULL REFERENCES evergreen_collections(id) ON DELETE CASCADE,
  org_id          bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- Ties between items used equally long ago go to the lower position (the order they were added).
  position        integer NOT NULL,
  -- The post body without accounts (content or containers, network blocks).
  post            jsonb NOT NULL,
  -- Alternative contents ({content} or {containers}), cycled after the item's own: (times_used % (1 + n)).
  variations      jsonb NOT NULL DEFAULT '[]',
  -- The time of the item's last turn (its post's scheduled time); NULL: never used.
  last_used_at    timestamptz,
  -- Posts created from it.
  times_used      integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (collection_id, position)
);

-- One row per turn of a collection: the post created from an item, or why the create path refused it.
CREATE TABLE evergreen_posts (
  collection_id   bigint NOT NULL REFERENCES evergreen_collections(id) ON DELETE CASCADE,
  run             integer NOT NULL,
  org_id          bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- NULL once the item was removed from the collection.
  item_id         bigint REFERENCES evergreen_items(id) ON DELETE SET NULL,
  -- The post's time: the rule's occurrence, or the queue slot it took (the turn's time when refused).
  scheduled_at    timestamptz NOT NULL,
  -- Which content: 0 the item's own, n its n-th variation. NULL when no post was created.
  variation       integer,
  post_id         bigint REFERENCES posts(id) ON DELETE SET NULL,
  refused         text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (collection_id, run)
);
CREATE INDEX evergreen_posts_post ON evergreen_posts (post_id) WHERE post_id IS NOT NULL;
