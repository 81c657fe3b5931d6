-- A published destination may carry a note in `error`: what the network did differently from what
-- was asked while still publishing (Facebook refusing a video's cover: the video is published with
-- its own thumbnail), so GET /v1/posts/:id says so. The function is 015's otherwise; a published
-- outcome without a note passes NULL, as before.

-- Its function (publishing_record_outcomes): src/db/functions/publishing-outcomes.sql, applied by migrate.ts before these files.
