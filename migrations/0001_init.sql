-- Accounts, keys, files, operations history and the money ledger.
-- Money is integer kopecks. Times are unix milliseconds.

CREATE TABLE accounts (
  id              TEXT PRIMARY KEY,
  email           TEXT NOT NULL UNIQUE,
  plan            TEXT NOT NULL CHECK (plan IN ('free', 'standard', 'business')),
  balance_kopecks INTEGER NOT NULL DEFAULT 0 CHECK (balance_kopecks >= 0),
  purchased_at    INTEGER,
  webhook_secret  TEXT NOT NULL,
  created_at      INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts(id),
  name          TEXT NOT NULL,
  secret_hash   TEXT NOT NULL UNIQUE,
  limit_kopecks INTEGER,
  period        TEXT NOT NULL DEFAULT 'never' CHECK (period IN ('never', 'daily', 'weekly', 'monthly')),
  created_at    INTEGER NOT NULL,
  deleted_at    INTEGER
);
CREATE INDEX api_keys_account ON api_keys(account_id);

-- Uploaded inputs (and files chained from results). The bytes live in R2 under r2_key.
CREATE TABLE files (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL,
  filename       TEXT NOT NULL,
  size           INTEGER NOT NULL,
  kind           TEXT NOT NULL,
  content_type   TEXT NOT NULL,
  pages          INTEGER,
  encrypted      INTEGER NOT NULL DEFAULT 0,
  r2_key         TEXT NOT NULL,
  source_task_id TEXT,
  created_at     INTEGER NOT NULL,
  expires_at     INTEGER NOT NULL,
  deleted_at     INTEGER
);
CREATE INDEX files_expiry ON files(expires_at) WHERE deleted_at IS NULL;

-- One row per accepted operation: the history, and what was charged for it.
CREATE TABLE operations (
  id             TEXT PRIMARY KEY,
  task_id        TEXT NOT NULL UNIQUE,
  account_id     TEXT NOT NULL,
  key_id         TEXT NOT NULL,
  type           TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'queued',
  charge_kopecks INTEGER NOT NULL,
  charge_units   INTEGER NOT NULL,
  included       INTEGER NOT NULL DEFAULT 0,
  refunded       INTEGER NOT NULL DEFAULT 0,
  result_key     TEXT,
  result_expires_at INTEGER,
  result_deleted_at INTEGER,
  created_at     INTEGER NOT NULL,
  finished_at    INTEGER
);
CREATE INDEX operations_account ON operations(account_id, created_at DESC, id DESC);
CREATE INDEX operations_key ON operations(key_id, created_at);
CREATE INDEX operations_results ON operations(result_expires_at) WHERE result_key IS NOT NULL AND result_deleted_at IS NULL;

-- Every movement of money. The balance of an account equals the sum of its ledger amounts.
-- kind: credit (admin top-up), charge (negative), refund (positive, at most one per task).
CREATE TABLE ledger (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id     TEXT NOT NULL,
  key_id         TEXT,
  task_id        TEXT,
  kind           TEXT NOT NULL CHECK (kind IN ('credit', 'charge', 'refund')),
  amount_kopecks INTEGER NOT NULL,
  created_at     INTEGER NOT NULL
);
CREATE UNIQUE INDEX ledger_once_per_task ON ledger(task_id, kind) WHERE task_id IS NOT NULL;
CREATE INDEX ledger_key_time ON ledger(key_id, created_at);
CREATE INDEX ledger_account_time ON ledger(account_id, created_at);
