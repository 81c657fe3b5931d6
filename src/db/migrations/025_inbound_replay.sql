-- A signed inbound delivery sent again (a network's redelivery, or a captured one replayed: Meta's
-- signature covers the body only, with no timestamp) is stored once. Meta gives no delivery id, so a
-- delivery is known by the SHA-256 of its body: the same bytes carry the same entries and items.
-- The key lives as long as the delivery row: until processed, then KEEP_PROCESSED_DAYS (inbound/deliveries.ts).
-- Rows stored before this migration have none (NULLs never conflict), so it applies whatever they hold.
ALTER TABLE inbound_deliveries ADD COLUMN body_sha256 bytea;
CREATE UNIQUE INDEX inbound_deliveries_replay ON inbound_deliveries (network, body_sha256);
