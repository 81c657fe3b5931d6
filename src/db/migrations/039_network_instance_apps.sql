-- OAuth on a federated network (Mastodon): an account lives on a server its owner names, and no org
-- registers an app there: Crier registers its own on first use (POST /api/v1/apps on that instance)
-- and keeps it here, one per server and callback, for every org. Two first connects racing may both
-- register on the server; only one is stored (INSERT … ON CONFLICT), and both use that one. A server
-- that later refuses the stored app (invalid_client) has its row dropped: the next connect registers
-- again.

CREATE TABLE network_instance_apps (
  network           text NOT NULL,
  origin            text NOT NULL,          -- the server's origin, https://mastodon.social
  redirect_uri      text NOT NULL,          -- the callback it was registered with (PUBLIC_BASE_URL may change)
  client_id         text NOT NULL,
  client_secret_enc bytea NOT NULL,         -- AES-256-GCM, associated data network_instance_apps:["<network>","<origin>","<redirect_uri>"]:secret
  scopes            text[] NOT NULL,        -- what it was registered with: an authorize may ask for these only
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, origin, redirect_uri)
);

-- The server a connect began on: the callback exchanges the code there.
ALTER TABLE oauth_states ADD COLUMN instance_origin text;
