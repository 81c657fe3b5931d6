-- Retention sweeps events by age across every org: an index on created_at alone serves it.
CREATE INDEX events_created ON events (created_at);
