ALTER TYPE "public"."verification_mode" ADD VALUE 'guest_pass';--> statement-breakpoint
CREATE TABLE "guest_passes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "guest_passes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"created_by" integer,
	"for_user" integer NOT NULL,
	"token_hash" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"used_phone" text,
	"phone_id" integer,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guest_passes_status" CHECK ("guest_passes"."status" in ('created', 'used', 'revoked', 'expired')),
	CONSTRAINT "guest_passes_window" CHECK ("guest_passes"."start_time" < "guest_passes"."end_time")
);
--> statement-breakpoint
ALTER TABLE "guest_passes" ADD CONSTRAINT "guest_passes_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_passes" ADD CONSTRAINT "guest_passes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_passes" ADD CONSTRAINT "guest_passes_for_user_users_id_fk" FOREIGN KEY ("for_user") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_passes" ADD CONSTRAINT "guest_passes_phone_id_phones_id_fk" FOREIGN KEY ("phone_id") REFERENCES "public"."phones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guest_passes_token_hash_unique" ON "guest_passes" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "guest_passes_barrier_idx" ON "guest_passes" USING btree ("barrier_id","id");--> statement-breakpoint
CREATE INDEX "guest_passes_open_idx" ON "guest_passes" USING btree ("barrier_id","for_user") WHERE "guest_passes"."status" = 'created';