CREATE TABLE "key_pairs" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_start" text NOT NULL,
	"application_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "key_pairs_public_key_unique" UNIQUE("public_key")
);
--> statement-breakpoint
ALTER TABLE "key_pairs" ADD CONSTRAINT "key_pairs_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_pairs_owner_idx" ON "key_pairs" USING btree ("owner_user_id","id");