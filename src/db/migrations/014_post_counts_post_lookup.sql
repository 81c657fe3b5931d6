-- The counter functions of 012 joined targets to `posts` and `social_accounts` as plain joins.
-- PL/pgSQL keeps a statement's plan for the life of the connection, and a plan made while those
-- tables were small or never analyzed (the planner then guesses a few hundred rows) hashed the whole
-- table on every call: measured in the create benchmark, the new-targets trigger took 2.6 ms of a
-- 3.9 ms batch after 9,000 posts, and grew with every post. Here each row's post and account are
-- looked up by id — a primary-key probe whatever the tables' size or the plan's age. OFFSET 0 keeps
-- a lookup from being flattened back into a join the planner may hash. test/db/plans.test.ts checks
-- the plans on fresh, never-analyzed tables.
CREATE OR REPLACE FUNCTION post_counts_scopes(post bigint) RETURNS text[] LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM targets t CROSS JOIN LATERAL (SELECT 1 FROM social_accounts WHERE id = t.account_id OFFSET 0 FOR KEY SHARE) AS a
   WHERE t.post_id = post;
  RETURN ARRAY[''] || array(SELECT 'a' || account_id FROM targets WHERE post_id = post)
    || array(SELECT DISTINCT 't' || a.tenant_id
               FROM targets t CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = t.account_id OFFSET 0) AS a
              WHERE t.post_id = post AND a.tenant_id IS NOT NULL);
END $$;

CREATE OR REPLACE FUNCTION post_counts_targets_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_counts_add(array_agg(p.org_id), array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(1))
     FROM (SELECT n.post_id, 'a' || n.account_id AS scope FROM new_targets n
           UNION ALL
           SELECT n.post_id, 't' || n.tenant_id
             FROM (SELECT n.post_id, a.tenant_id, count(*) AS added
                     FROM new_targets n CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = n.account_id OFFSET 0) AS a
                    WHERE a.tenant_id IS NOT NULL GROUP BY 1, 2) AS n
            WHERE n.added = (SELECT count(*)
                               FROM targets o CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = o.account_id OFFSET 0) AS oa
                              WHERE o.post_id = n.post_id AND oa.tenant_id = n.tenant_id)) AS s
    CROSS JOIN LATERAL (SELECT org_id, created_at, scheduled_at FROM posts WHERE id = s.post_id OFFSET 0) AS p;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION post_counts_targets_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM old_targets o CROSS JOIN LATERAL (SELECT 1 FROM social_accounts WHERE id = o.account_id OFFSET 0 FOR KEY SHARE) AS a;
  PERFORM post_counts_add(array_agg(p.org_id), array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(-1))
     FROM (SELECT o.post_id, 'a' || o.account_id AS scope FROM old_targets o
           UNION ALL
           SELECT DISTINCT o.post_id, 't' || a.tenant_id
             FROM old_targets o CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = o.account_id OFFSET 0) AS a
            WHERE a.tenant_id IS NOT NULL
              AND NOT EXISTS (SELECT 1
                                FROM targets r CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = r.account_id OFFSET 0) AS ra
                               WHERE r.post_id = o.post_id AND ra.tenant_id = a.tenant_id)) AS s
    CROSS JOIN LATERAL (SELECT org_id, created_at, scheduled_at FROM posts WHERE id = s.post_id OFFSET 0) AS p;
  RETURN NULL;
END $$;
