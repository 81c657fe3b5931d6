-- GET /v1/posts/:id/deliveries: the events about one post (post.published, post.error), found by the
-- post id their data carries without reading every event of the org.
CREATE INDEX events_post ON events (org_id, (data->>'postId')) WHERE data ? 'postId';
