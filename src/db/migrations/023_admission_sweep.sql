-- Admitting a batch of destinations (publishing_admit_batch, migration 016) did two more things every
-- batch that most batches need not: it swept the accounts' old admissions, and it read every item's
-- admission back to write the waiting reason of those held back. Over a drain of bench:publish they
-- were a third of the admission's time (892 and 295 of 3,329 ms for 43,072 destinations,
-- pg_stat_statements), while the sweep removes only rows a window old and the reason concerns only
-- the items held back. Now the worker asks for the sweep at most once a second (`p_sweep`), and the
-- reason is written in the statement that places the items, from the times it has just chosen.
DROP FUNCTION IF EXISTS publishing_admit_batch(bigint[], bigint[], int[], int[], float8[]);

-- Its functions (publishing_quota_wait_reason…): src/db/functions/publishing-admission.sql, applied by migrate.ts before these files.
