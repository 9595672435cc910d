-- Sign-in for account holders (the dashboard): a password per account, sessions, one-time links.
-- Only hashes of session tokens and link tokens are stored. Times are unix milliseconds.

-- "pbkdf2-sha256$<iterations>$<salt base64url>$<hash base64url>": the scheme and count are kept
-- with each hash (deployed Workers refuse PBKDF2 above 100,000 iterations; local workerd does not).
ALTER TABLE accounts ADD COLUMN password_hash TEXT;

CREATE TABLE sessions (
  token_hash  TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
CREATE INDEX sessions_by_account ON sessions(account_id);

CREATE TABLE sign_in_links (
  token_hash  TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
