-- Issue 40: an email is one account whatever its case. New rows are trimmed and lower-cased by
-- the code (storage/accounts.ts normalizeEmail); this lower-cases the rows already there and adds
-- a unique index on lower(email), so no spelling can make a second account again.
--
-- Where two rows are spellings of one address (the admin API made a second account for another
-- case before), one keeps the address: the row already spelled in lower case (the only one that
-- could sign in with a password), else the oldest. The others keep their data, keys and balance,
-- and their email becomes "<lower-cased email>#duplicate-<account id>", which no sign-in can
-- match; an operator finds them with: SELECT id, email FROM accounts WHERE email LIKE '%#duplicate-%';
UPDATE accounts SET email = lower(trim(email)) || '#duplicate-' || id
WHERE EXISTS (
  SELECT 1 FROM accounts AS k
  WHERE k.id <> accounts.id
    AND lower(trim(k.email)) = lower(trim(accounts.email))
    AND (
      (k.email = lower(trim(k.email))) > (accounts.email = lower(trim(accounts.email)))
      OR ((k.email = lower(trim(k.email))) = (accounts.email = lower(trim(accounts.email)))
          AND (k.created_at < accounts.created_at OR (k.created_at = accounts.created_at AND k.id < accounts.id)))
    )
);

UPDATE accounts SET email = lower(trim(email)) WHERE email <> lower(trim(email));

CREATE UNIQUE INDEX IF NOT EXISTS accounts_email_lower ON accounts (lower(email));
