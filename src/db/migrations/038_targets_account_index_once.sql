-- targets_account_post (account_id, post_id), from 001, is a prefix twin of 029's
-- targets_account_created (account_id, post_created_at DESC, post_id DESC): every statement that finds
-- targets by account (the queues' held slots and quota uses, an account's deletion check and cascade,
-- the list's account pages) reads the newer one as well, and targets by post use their unique
-- (post_id, account_id). Every insert and every non-HOT update of a target (a destination is updated
-- twice while it publishes, and its status is in indexes, so never HOT) maintained both. Dropping it
-- pays for 036's targets_org_status: a target keeps the number of indexes it had.
DROP INDEX targets_account_post;
