-- Disabling or re-enabling an account may change what its credentials allow: cached verifications
-- are dropped on every instance (server/db/schema/credential-epoch.ts).
DROP TRIGGER credential_epoch_user ON users;
--> statement-breakpoint
CREATE TRIGGER credential_epoch_user AFTER UPDATE OF email, name, role_id, session_version, unlimited_externals, disabled_at OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
-- Manual rows so far were all typed by the person themselves.
UPDATE health_weights SET entered_by_user_id = user_id WHERE provenance = 'manual';
--> statement-breakpoint
UPDATE health_lactate SET entered_by_user_id = user_id WHERE provenance = 'manual';
