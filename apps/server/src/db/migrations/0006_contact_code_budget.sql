-- This migration created (0002) or changed (0006) the signer's tables. They moved to the signer's
-- own migration set, apps/signer/src/db/migrations, which creates them where they are missing and
-- leaves them be where this migration already ran (docs/decisions/0016).
SELECT 1;
