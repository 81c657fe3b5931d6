-- Two changes to how an attempt's end is recorded (the function is 010's otherwise):
--  - a retry keeps the target's checkpoint (010 dropped it): after a network's 5xx on the 41st range
--    of a video, the next attempt resumes the same upload session instead of starting over, and an
--    adapter that decides from its checkpoint whether a post could have been sent (LinkedIn:
--    `ready`) still knows after a retry;
--  - a retry may release the reservation of the container whose call the network refused (a 429:
--    certainly not published), so the next attempt sends it again without reconciling — which, on a
--    network that cannot be asked (a LinkedIn member's posts), would end `unknown`.
DROP FUNCTION IF EXISTS publishing_record_outcomes(bigint[], bigint[], bigint[], bigint[], text[], text[], text[], text[], text[], float8[], jsonb[], int[], text[], text[], jsonb[], jsonb);

-- Its function (publishing_record_outcomes): src/db/functions/publishing-outcomes.sql, applied by migrate.ts before these files.
