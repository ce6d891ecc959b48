-- Who may see an athlete, defined once (docs/access.md): the account that manages the record,
-- the athlete's own linked account (own = true), and the coaches of every team the athlete is in.
-- server/access/access.ts reads it for athlete lists; session_access_refresh_many below builds on it.
CREATE VIEW athlete_viewers AS
  SELECT a.id AS athlete_id, a.owner_user_id AS user_id, false AS own FROM athletes a
  UNION ALL
  SELECT a.id, a.user_id, true FROM athletes a WHERE a.user_id IS NOT NULL
  UNION ALL
  SELECT m.athlete_id, c.user_id, false
  FROM team_memberships m JOIN team_memberships c ON c.team_id = m.team_id AND c.role = 'coach'
  WHERE m.role = 'athlete';
--> statement-breakpoint
-- Who may see a result, defined once: its owner, and everyone who may see an athlete of its crew.
-- subject: the person owns it or paddled in it (the Data API's subject boundary).
CREATE FUNCTION session_access_refresh_many(rids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM session_access WHERE result_id = ANY(rids);
  INSERT INTO session_access (user_id, result_id, start_at, distance_m, duration_ms, created_at, subject)
  SELECT people.user_id, r.id, r.start_at, r.distance_m, r.duration_ms, r.created_at, bool_or(people.subject)
  FROM results r
  CROSS JOIN LATERAL (
    SELECT r.owner_user_id AS user_id, true AS subject
    UNION ALL
    SELECT v.user_id, v.own FROM result_crew rc JOIN athlete_viewers v ON v.athlete_id = rc.athlete_id WHERE rc.result_id = r.id
  ) people
  WHERE r.id = ANY(rids)
  GROUP BY people.user_id, r.id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION session_access_refresh(rid integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_access_refresh_many(ARRAY[rid]);
END $$;
--> statement-breakpoint
-- An athlete's manager or linked account changes what every result of theirs shows to whom.
DROP TRIGGER session_access_athlete ON athletes;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION session_access_on_athlete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_access_refresh_many(ARRAY(SELECT DISTINCT result_id FROM result_crew WHERE athlete_id = NEW.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_access_athlete AFTER UPDATE OF user_id, owner_user_id ON athletes
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id)
  EXECUTE FUNCTION session_access_on_athlete();
--> statement-breakpoint
-- A coach joining or leaving a team gains or loses the results of the team's athletes; an athlete
-- joining or leaving changes which coaches see theirs. Team deletion cascades here too.
CREATE FUNCTION session_access_on_membership() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m team_memberships;
BEGIN
  FOREACH m IN ARRAY (CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW] WHEN 'DELETE' THEN ARRAY[OLD] ELSE ARRAY[OLD, NEW] END) LOOP
    PERFORM session_access_refresh_many(ARRAY(
      SELECT DISTINCT rc.result_id FROM result_crew rc
      WHERE rc.athlete_id = m.athlete_id
         OR (m.role = 'coach' AND rc.athlete_id IN (SELECT tm.athlete_id FROM team_memberships tm WHERE tm.team_id = m.team_id AND tm.role = 'athlete'))));
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_access_membership AFTER INSERT OR UPDATE OR DELETE ON team_memberships
  FOR EACH ROW EXECUTE FUNCTION session_access_on_membership();
--> statement-breakpoint
-- Existing results, under the wider rule.
SELECT session_access_refresh_many(ARRAY(SELECT id FROM results));
--> statement-breakpoint
-- Credential epoch (server/db/schema/credential-epoch.ts): raised by every change that may
-- invalidate a verified credential, so that cached verifications are dropped on every instance.
INSERT INTO credential_epoch (id, value) VALUES (1, 0);
--> statement-breakpoint
CREATE FUNCTION credential_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE credential_epoch SET value = value + 1 WHERE id = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER credential_epoch_access_token AFTER UPDATE OR DELETE ON oauth_models
  FOR EACH ROW WHEN (OLD.model = 'AccessToken') EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER credential_epoch_grant AFTER UPDATE OF user_id, application_id, scopes, expires_at, revoked_at OR DELETE ON oauth_grants
  FOR EACH STATEMENT EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER credential_epoch_application AFTER UPDATE OF client_id, surface, review_status, owner_user_id OR DELETE ON oauth_applications
  FOR EACH STATEMENT EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER credential_epoch_key_pair AFTER UPDATE OF public_key, secret_hash, owner_user_id, application_id, revoked_at OR DELETE ON key_pairs
  FOR EACH STATEMENT EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER credential_epoch_user AFTER UPDATE OF email, name, role_id, session_version, unlimited_externals OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
CREATE TRIGGER credential_epoch_role AFTER UPDATE OR DELETE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION credential_epoch_bump();
--> statement-breakpoint
-- One API request's admission: counts it in its fixed window and returns the count with the
-- credential epoch, in one round trip. The count is exact across instances (a row lock orders
-- the increments); only its durability is relaxed: the commit does not wait for the WAL flush,
-- so a database crash may forget the last fraction of a second of counts (docs/architecture.md).
CREATE FUNCTION rate_limit_hit(p_bucket text, p_window_start timestamptz, OUT hits integer, OUT credential_epoch bigint) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO rate_limit_counters AS c (bucket, window_start, count) VALUES (p_bucket, p_window_start, 1)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + 1
    RETURNING c.count INTO hits;
  -- Expired windows of this bucket go when a new one opens.
  IF hits = 1 THEN
    DELETE FROM rate_limit_counters WHERE bucket = p_bucket AND window_start < p_window_start;
  END IF;
  SELECT e.value INTO credential_epoch FROM credential_epoch e WHERE e.id = 1;
END $$;
