-- Two things a network's own rules need from the database:
--  * network_ledger: a network's counters shared by every worker and kept across restarts (a daily
--    quota pool the network imposes on the whole app, a cap on distinct creators in 24 h). One row
--    per entry; the network reads a window of them under the pool's advisory lock (publishing/ledger.ts).
--  * managed apps: an account connected through the operator's own app of the network
--    (CRIER_<NETWORK>_CLIENT_ID/_SECRET) rather than one the organization registered; its tokens are
--    refreshed with that app, and networks may count what it publishes (YouTube's shared pool).

CREATE TABLE network_ledger (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network  text NOT NULL,
  pool     text NOT NULL,
  subject  text NOT NULL,
  org_id   bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  units    integer NOT NULL CHECK (units >= 0),
  at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX network_ledger_window ON network_ledger (network, pool, at);
CREATE INDEX network_ledger_org ON network_ledger (org_id);

ALTER TABLE social_accounts ADD COLUMN managed_app boolean NOT NULL DEFAULT false;
ALTER TABLE oauth_states ADD COLUMN managed_app boolean NOT NULL DEFAULT false;
ALTER TABLE pending_connections ADD COLUMN managed_app boolean NOT NULL DEFAULT false;
