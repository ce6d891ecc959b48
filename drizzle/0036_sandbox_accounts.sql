CREATE TABLE "sandbox_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"owner_user_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"seed" integer NOT NULL,
	"weeks" smallint NOT NULL,
	"sessions_per_week" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reset_at" timestamp with time zone,
	CONSTRAINT "sandbox_accounts_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "sandbox_accounts_application_id_unique" UNIQUE("application_id")
);
--> statement-breakpoint
ALTER TABLE "sandbox_accounts" ADD CONSTRAINT "sandbox_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_accounts" ADD CONSTRAINT "sandbox_accounts_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_accounts" ADD CONSTRAINT "sandbox_accounts_application_id_oauth_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."oauth_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_accounts_owner_idx" ON "sandbox_accounts" USING btree ("owner_user_id");--> statement-breakpoint
-- The blob rows of one person's files (originals, replay artifacts, reports, exports, device-fetch copies):
-- their keys name the row they belong to, so a cascade cannot reach them. Used by a sandbox's reset and below.
CREATE FUNCTION "sandbox_delete_blobs"(person integer) RETURNS void LANGUAGE sql AS $$
  DELETE FROM "blobs" b USING "results" r WHERE r."owner_user_id" = person AND b."key" LIKE 'results/' || r."id" || '/%';
  DELETE FROM "blobs" b USING "trainings" t WHERE t."owner_user_id" = person AND b."key" LIKE 'trainings/' || t."id" || '/%';
  DELETE FROM "blobs" b USING "export_jobs" e WHERE e."subject_user_id" = person AND b."key" = 'exports/' || e."public_id";
  DELETE FROM "blobs" b USING "device_jobs" d WHERE d."subject_user_id" = person AND b."key" = 'device-fetch/' || d."public_id";
$$;--> statement-breakpoint
-- A sandbox person lives exactly as long as its link: when the application or its owner goes, so does the test person.
CREATE FUNCTION "sandbox_account_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "sandbox_delete_blobs"(OLD."user_id");
  -- Sessions and trainings first: their crew seats hold the person's athletes, which a seat does not let go of.
  DELETE FROM "results" WHERE "owner_user_id" = OLD."user_id";
  DELETE FROM "trainings" WHERE "owner_user_id" = OLD."user_id";
  DELETE FROM "users" WHERE "id" = OLD."user_id" AND "account_kind" = 'sandbox';
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "sandbox_accounts_delete_person" AFTER DELETE ON "sandbox_accounts" FOR EACH ROW EXECUTE FUNCTION "sandbox_account_deleted"();
