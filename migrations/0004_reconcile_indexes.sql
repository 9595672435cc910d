-- The cron sweep's safety net for money (src/api/cron.ts) looks for history rows still open and for
-- failed rows not refunded; these partial indexes keep those look-ups off a scan of every operation.
CREATE INDEX operations_open ON operations(created_at) WHERE status IN ('queued', 'processing');
CREATE INDEX operations_failed_unrefunded ON operations(created_at) WHERE status = 'failed' AND refunded = 0;
