ALTER TABLE "users" ADD COLUMN "account_kind" text DEFAULT 'person' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_kind_check" CHECK ("account_kind" IN ('person', 'demo', 'sandbox'));--> statement-breakpoint
-- Accounts an earlier demo seed made (their addresses are the seed's own).
UPDATE "users" SET "account_kind" = 'demo' WHERE "email" IN ('demo@paddle.example', 'lucia@paddle.example', 'operator@paddle.example');
