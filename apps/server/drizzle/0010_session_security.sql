CREATE TABLE "admin_password_steps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "admin_password_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"nonce_hash" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inbound_webhook_signatures" (
	"signature_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retired_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"retired_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_failures" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_refresh_token_hash" text;--> statement-breakpoint
ALTER TABLE "admin_password_steps" ADD CONSTRAINT "admin_password_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retired_refresh_tokens" ADD CONSTRAINT "retired_refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_password_steps_nonce_hash_unique" ON "admin_password_steps" USING btree ("nonce_hash");--> statement-breakpoint
CREATE INDEX "admin_password_steps_user_created_idx" ON "admin_password_steps" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "inbound_webhook_signatures_expires_idx" ON "inbound_webhook_signatures" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "retired_refresh_tokens_retired_at_idx" ON "retired_refresh_tokens" USING btree ("retired_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_previous_refresh_token_hash_unique" ON "sessions" USING btree ("previous_refresh_token_hash");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "password_verified_at";