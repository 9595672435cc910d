-- Idempotency-Key (DECISIONS: Idempotency): per account, kept 24 hours. A row without a status is
-- a request still being answered; later requests with the same key wait for it.
CREATE TABLE idempotency_keys (
  account_id   TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status       INTEGER,
  body         TEXT,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
