ALTER TABLE "barrier_limits" ADD COLUMN "sms_resident_share" integer;--> statement-breakpoint
ALTER TABLE "barrier_limits" ADD COLUMN "sms_owner_reserve" integer;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "spent_by" integer;