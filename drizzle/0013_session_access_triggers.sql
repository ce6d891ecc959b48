-- session_access (server/db/schema/session-access.ts) is kept by these triggers alone:
-- whenever a result, its crew or an athlete's linked account changes, the result's rows are rebuilt.
CREATE FUNCTION session_access_refresh(rid integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM session_access WHERE result_id = rid;
  -- The owner, and every account whose athlete record sits in the crew.
  INSERT INTO session_access (user_id, result_id, start_at, distance_m, duration_ms, created_at)
  SELECT people.user_id, r.id, r.start_at, r.distance_m, r.duration_ms, r.created_at
  FROM results r
  CROSS JOIN LATERAL (
    SELECT r.owner_user_id AS user_id
    UNION
    SELECT a.user_id FROM result_crew rc JOIN athletes a ON a.id = rc.athlete_id WHERE rc.result_id = r.id AND a.user_id IS NOT NULL
  ) people
  WHERE r.id = rid;
END $$;
--> statement-breakpoint
CREATE FUNCTION session_access_on_result() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM session_access_refresh(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_access_result AFTER INSERT OR UPDATE OF owner_user_id, start_at, distance_m, duration_ms, created_at ON results
  FOR EACH ROW EXECUTE FUNCTION session_access_on_result();
--> statement-breakpoint
CREATE FUNCTION session_access_on_crew() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM session_access_refresh(OLD.result_id); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.result_id <> OLD.result_id) THEN PERFORM session_access_refresh(NEW.result_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_access_crew AFTER INSERT OR UPDATE OR DELETE ON result_crew
  FOR EACH ROW EXECUTE FUNCTION session_access_on_crew();
--> statement-breakpoint
CREATE FUNCTION session_access_on_athlete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE rid integer;
BEGIN
  FOR rid IN SELECT DISTINCT result_id FROM result_crew WHERE athlete_id = NEW.id LOOP
    PERFORM session_access_refresh(rid);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_access_athlete AFTER UPDATE OF user_id ON athletes
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION session_access_on_athlete();
--> statement-breakpoint
-- Existing results.
SELECT session_access_refresh(id) FROM results;
