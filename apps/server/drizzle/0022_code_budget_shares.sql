ALTER TABLE "users" ADD COLUMN "password_change_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "budget_share" text DEFAULT 'account' NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "guest_pass_id" integer;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_guest_pass_id_guest_passes_id_fk" FOREIGN KEY ("guest_pass_id") REFERENCES "public"."guest_passes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifications_created_share_idx" ON "verifications" USING btree ("created_at","budget_share");--> statement-breakpoint
CREATE INDEX "verifications_guest_pass_idx" ON "verifications" USING btree ("guest_pass_id","created_at") WHERE "verifications"."guest_pass_id" is not null;