ALTER TABLE "verifications" ADD COLUMN "requested_ip" text;--> statement-breakpoint
CREATE INDEX "verifications_phone_created_idx" ON "verifications" USING btree ("phone","created_at");