ALTER TABLE "admin_blocks" ADD COLUMN "phone" text;--> statement-breakpoint
UPDATE "admin_blocks" SET "phone" = "users"."phone" FROM "users" WHERE "users"."id" = "admin_blocks"."user_id";
