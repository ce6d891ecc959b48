-- Reference data every database needs: roles, boat types, categories, paces.
-- Ids are fixed so that API clients can rely on them across deployments.
INSERT INTO "roles" ("id", "name", "can_read", "can_create_sessions", "can_delete_sessions", "is_operator") VALUES
  (1, 'viewer',   true, false, false, false),
  (2, 'athlete',  true, true,  false, false),
  (3, 'coach',    true, true,  true,  false),
  (4, 'operator', true, true,  true,  true)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('roles', 'id'), (SELECT max("id") FROM "roles"));
--> statement-breakpoint
INSERT INTO "vessels" ("id", "type", "npeople", "hull", "supported") VALUES
  (1, 'K1', 1, 'kayak', true),
  (2, 'K2', 2, 'kayak', true),
  (3, 'K4', 4, 'kayak', true),
  (4, 'C1', 1, 'canoe', true),
  (5, 'C2', 2, 'canoe', true),
  (6, 'C4', 4, 'canoe', true),
  (7, 'SUP1', 1, 'kayak', false)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('vessels', 'id'), (SELECT max("id") FROM "vessels"));
--> statement-breakpoint
INSERT INTO "categories" ("id", "name") VALUES
  (1, 'Senior'), (2, 'U23'), (3, 'Junior'), (4, 'Cadet'), (5, 'Infantil'), (6, 'Master'), (7, 'Para')
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('categories', 'id'), (SELECT max("id") FROM "categories"));
--> statement-breakpoint
INSERT INTO "paces" ("id", "name") VALUES
  (1, 'Race'), (2, 'Training'), (3, 'Test'), (4, 'Start practice')
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('paces', 'id'), (SELECT max("id") FROM "paces"));
