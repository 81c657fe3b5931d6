-- GET /v1/posts?status=… (issue 34: the approvals page and the calendar read the posts waiting for
-- approval, a tool reads the failed ones). Such posts are usually few among many: without this index
-- the list would test every post of the organization, newest first, for a destination in the status.
-- With it the planner reads the rare statuses' targets directly (the statuses are written into the
-- statement as literals, so it knows how rare each is: posts/totals.ts postWhere).
CREATE INDEX targets_org_status ON targets (org_id, status, post_id);
