-- A network's refusal of a call it certainly did not carry out (a 429, a spent quota) is not a failed
-- try of the post: the destination waits the time the network stated, and the refusal is not counted
-- against the attempts allowed (CRIER_PUBLISH_MAX_ATTEMPTS). Each destination counts its refusals
-- here (its attempt_count still counts every attempt: a later one knows it resumes); after
-- CRIER_PUBLISH_MAX_REFUSALS of them it fails, so that a network refusing forever still ends
-- (src/publishing/run-target.ts).
ALTER TABLE targets ADD COLUMN refusals integer NOT NULL DEFAULT 0;

-- publishing_record_outcomes takes whether each attempt was refused (p_refused); its earlier
-- signature, without it, goes (the new one is applied from src/db/functions/ before this file).
DROP FUNCTION IF EXISTS publishing_record_outcomes(bigint[], bigint[], bigint[], bigint[], text[], text[], text[], text[], text[], float8[], jsonb[], int[], text[], text[], jsonb[], int[], jsonb);
