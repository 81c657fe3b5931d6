-- How a batch of publish attempts ended, recorded in one call (the current text; migrate.ts applies
-- this file when it changes: see src/db/README.md).
--
-- Records how a batch of attempts ended, in one call: one round trip and one commit per batch,
-- whatever its size (src/publishing/finish.ts; measured, the seven statements of the same work
-- written one by one made the worker's socket writes its largest cost). Volatile, so each statement
-- below sees what other transactions committed before it began: after the posts are locked, the
-- completion check sees the targets another worker finished just before.
-- Returns a row per attempt that was still its target's current one (`attempt_id`), and a row per
-- post this finished (`org_id`, `type`, `data`: its one event, built with the public ids the caller
-- passes in `p_public_ids` — {"p<post>": …, "o<org>": …, "a<account>": …}), for the caller's
-- statement to write to the outbox.
-- A retry keeps the target's checkpoint (a video upload resumes its session) and may release the
-- reservation of the container the network certainly refused (`p_release_position`: a 429), so the
-- next attempt sends it again without reconciling. A refusal (`p_refused`: a 429, a spent quota,
-- whichever call it answered) is counted in the target's `refusals`, which the engine does not
-- count against the attempts allowed. A published outcome may carry a note in `error`:
-- what the network did differently while still publishing (Facebook refusing a video's cover).
CREATE OR REPLACE FUNCTION publishing_record_outcomes(
  p_target bigint[], p_attempt bigint[], p_org bigint[], p_post bigint[], p_status text[], p_outcome text[],
  p_error text[], p_platform_id text[], p_platform_url text[], p_delay_ms float8[], p_checkpoint jsonb[],
  p_part_position int[], p_part_id text[], p_part_url text[], p_part_ref jsonb[], p_release_position int[], p_refused boolean[],
  p_public_ids jsonb
) RETURNS TABLE (attempt_id bigint, org_id bigint, type text, data jsonb)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_recorded bigint[];
  v_settled bigint[];
  v_published bigint[];
BEGIN
  -- The posts first, in id order, then their targets: the order PATCH and DELETE use, so none of
  -- them deadlocks with another, and the last of two workers finishing a post's last two targets at
  -- once is the one that sees both finished.
  PERFORM 1 FROM posts WHERE id = ANY (p_post) ORDER BY id FOR UPDATE;

  WITH r AS (
    SELECT * FROM unnest(p_target, p_attempt, p_org, p_post, p_status, p_outcome, p_error, p_platform_id, p_platform_url,
                         p_delay_ms, p_checkpoint, p_part_position, p_part_id, p_part_url, p_part_ref, p_release_position, p_refused)
      AS r(target_id, attempt_id, org_id, post_id, status, attempt_outcome, error, platform_post_id, platform_post_url,
           delay_ms, checkpoint, part_position, part_id, part_url, part_ref, release_position, refused)
  ), cur AS (
    SELECT r.* FROM r JOIN targets t ON t.id = r.target_id AND t.current_attempt_id = r.attempt_id
     ORDER BY r.target_id FOR UPDATE OF t
  ), part AS (
    -- The last container the network accepted is recorded even for an attempt that was taken over:
    -- whichever attempt carries on must know it is published.
    INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url, ref)
    SELECT r.target_id, r.part_position, r.org_id, 'published', r.part_id, r.part_url, r.part_ref FROM r WHERE r.part_position IS NOT NULL
    ON CONFLICT (target_id, position) DO UPDATE SET status = 'published', platform_id = EXCLUDED.platform_id,
      platform_url = EXCLUDED.platform_url, ref = EXCLUDED.ref, updated_at = now()
  ), released AS (
    -- The network refused the call of a reserved container (a 429): it is certainly not published,
    -- so the next attempt reserves and sends it again instead of asking the network about it.
    DELETE FROM target_parts p USING cur
     WHERE p.target_id = cur.target_id AND p.position = cur.release_position AND p.status = 'reserved'
  ), attempt AS (
    UPDATE attempts a SET finished_at = now(), outcome = cur.attempt_outcome, error = cur.error
      FROM cur WHERE a.id = cur.attempt_id
  ), target AS (
    UPDATE targets t
       SET status = cur.status, current_attempt_id = NULL,
           error = CASE WHEN cur.attempt_outcome = 'waiting' THEN t.error ELSE cur.error END,
           platform_post_id = coalesce(cur.platform_post_id, t.platform_post_id),
           platform_post_url = coalesce(cur.platform_post_url, t.platform_post_url),
           published_at = CASE WHEN cur.status = 'published' THEN now() ELSE t.published_at END,
           due_at = CASE WHEN cur.status = 'pending' THEN now() + cur.delay_ms * interval '1 millisecond' END,
           -- A wait stores where to resume; a retry keeps it (the work done on the network stays
           -- done: an upload session, the media a post is ready with), and the claim tells the next
           -- attempt that the last one ended in a retry, so it reconciles before going on.
           checkpoint = CASE WHEN cur.attempt_outcome = 'waiting' THEN cur.checkpoint
                             WHEN cur.attempt_outcome = 'retry' THEN t.checkpoint END,
           -- A wait is a step of the same work, not another try: it spends no attempt.
           attempt_count = CASE WHEN cur.attempt_outcome = 'waiting' THEN t.attempt_count - 1 ELSE t.attempt_count END,
           -- Of the attempts, those whose call the network certainly refused (a 429, a spent
           -- quota): the engine does not count them against the attempts allowed (migration 041).
           refusals = t.refusals + CASE WHEN cur.refused THEN 1 ELSE 0 END
      FROM cur WHERE t.id = cur.target_id
  )
  SELECT coalesce(array_agg(cur.attempt_id), '{}'),
         coalesce(array_agg(DISTINCT cur.post_id) FILTER (WHERE cur.status <> 'pending'), '{}'),
         coalesce(array_agg(DISTINCT cur.post_id) FILTER (WHERE cur.status = 'published'), '{}')
    INTO v_recorded, v_settled, v_published
    FROM cur;

  RETURN QUERY SELECT id, NULL::bigint, NULL::text, NULL::jsonb FROM unnest(v_recorded) AS id;

  IF EXISTS (SELECT 1 FROM targets t WHERE t.post_id = ANY (v_settled) AND NOT p_public_ids ? ('a' || t.account_id)) THEN
    RAISE EXCEPTION 'publishing_record_outcomes: no public id for an account of posts %', v_settled;
  END IF;

  -- Each post with no open target left gets its one event and leaves the queue.
  RETURN QUERY
  WITH done AS (
    SELECT p.id, p.org_id FROM posts p
     WHERE p.id = ANY (v_settled) AND p.completed_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id AND t.status IN ('pending', 'publishing'))
  ), completed AS (
    -- publishedAt is the first success; one row version per post whatever this statement did to it.
    UPDATE posts p
       SET completed_at = CASE WHEN done.id IS NOT NULL THEN now() ELSE p.completed_at END,
           queued = CASE WHEN done.id IS NOT NULL THEN false ELSE p.queued END,
           published_at = CASE WHEN p.id = ANY (v_published) THEN coalesce(p.published_at, now()) ELSE p.published_at END
      FROM (SELECT unnest(v_settled) AS id) AS settled LEFT JOIN done ON done.id = settled.id
     WHERE p.id = settled.id AND (done.id IS NOT NULL OR (p.id = ANY (v_published) AND p.published_at IS NULL))
  ), states AS (
    SELECT d.id, d.org_id,
           jsonb_agg(jsonb_build_object('accountId', p_public_ids->>('a' || t.account_id), 'network', a.network, 'username', a.username,
                     'platformPostId', t.platform_post_id, 'platformPostUrl', t.platform_post_url) ORDER BY t.id)
             FILTER (WHERE t.status = 'published') AS published,
           jsonb_agg(jsonb_build_object('accountId', p_public_ids->>('a' || t.account_id), 'network', a.network, 'username', a.username,
                     'error', coalesce(t.error, 'failed')) ORDER BY t.id)
             FILTER (WHERE t.status IN ('failed', 'unknown')) AS failed
      FROM done d JOIN targets t ON t.post_id = d.id JOIN social_accounts a ON a.id = t.account_id
     GROUP BY d.id, d.org_id
  )
  -- post.published when at least one account has it (listing those), post.error when all failed.
  SELECT NULL::bigint, s.org_id, CASE WHEN s.published IS NOT NULL THEN 'post.published' ELSE 'post.error' END,
         jsonb_build_object('postId', p_public_ids->>('p' || s.id), 'orgId', p_public_ids->>('o' || s.org_id),
                            'socialAccounts', coalesce(s.published, s.failed))
    FROM states s
   WHERE s.published IS NOT NULL OR s.failed IS NOT NULL;
END $$;
