-- Media: uploads (signed PUT, then confirm), the video renditions processMedia makes for a network,
-- and the usage billed for them. Files live in the media storage (src/media/storage.ts); rows say
-- where (`storage_key`) and under which unguessable public path (`token`) they are served.

CREATE TABLE media (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id        bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  filename      text NOT NULL,
  declared_type text,                 -- content_type announced at upload start, if any
  content_type  text,                 -- the type found in the bytes by confirm
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready')),
  token         text NOT NULL UNIQUE, -- path segment of the public URL; served only once ready
  -- Each PUT writes a new object and points here only if the media is still pending, so bytes
  -- that were confirmed can never change under their URL. Null until the first PUT lands.
  storage_key   text,
  size          bigint,               -- bytes received by the last upload PUT
  sha256        bytea,                -- of those bytes: the public ETag
  uploaded_at   timestamptz,
  confirmed_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  -- pending: end of the upload window; ready: end of retention. Maintenance deletes what is past it.
  expires_at    timestamptz NOT NULL
);
CREATE INDEX media_org_created ON media (org_id, created_at DESC, id DESC);
CREATE INDEX media_expires ON media (expires_at);

CREATE TABLE renditions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- What was encoded: 'media:<id>' for Crier's own media (immutable once confirmed), otherwise
  -- 'sha256:<hex>' of the downloaded bytes (a URL's content can change, its hash cannot).
  source_key  text NOT NULL,
  source_url  text NOT NULL,
  media_id    bigint REFERENCES media(id) ON DELETE CASCADE,
  profile     text NOT NULL,          -- VideoProfile.id (versioned: new limits, new renditions)
  filename    text NOT NULL,
  token       text NOT NULL UNIQUE,
  storage_key text NOT NULL,
  size        bigint NOT NULL,
  sha256      bytea NOT NULL,
  duration_ms integer NOT NULL,
  width       integer NOT NULL,
  height      integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  UNIQUE (org_id, source_key, profile)
);
CREATE INDEX renditions_expires ON renditions (expires_at);
CREATE INDEX renditions_media ON renditions (media_id) WHERE media_id IS NOT NULL;

-- The bill outlives the rendition: no foreign key, and what was billed is copied here.
CREATE TABLE usage_records (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id       bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('video_rendition')),
  rendition_id bigint NOT NULL,
  profile      text NOT NULL,
  source_url   text NOT NULL,
  duration_ms  integer NOT NULL,
  blocks       integer NOT NULL CHECK (blocks >= 1),   -- 10-second blocks, rounded up
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_records_org_created ON usage_records (org_id, created_at, id);

-- Installation-wide keys (upload URL signatures), sealed with the secret key: every API process
-- verifies what any other one signed, and none of them can without CRIER_SECRET_KEY.
CREATE TABLE signing_keys (
  purpose    text PRIMARY KEY,
  key_enc    bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
