-- PATCH /v1/posts/:id/remote changes a published post's text on the networks that allow it. The
-- record keeps what each destination's network shows since: the part's new text and when, and on the
-- destination the time of its latest edit (read by the post lists without touching target_parts).
ALTER TABLE target_parts ADD COLUMN edited_text text;
ALTER TABLE target_parts ADD COLUMN edited_at timestamptz;
ALTER TABLE targets ADD COLUMN edited_at timestamptz;
