ALTER TABLE "device_commands" ADD COLUMN "handed_over_at" timestamp with time zone;--> statement-breakpoint
-- Commands sent before this column existed: their hand-over was not recorded; count them as accepted, as before.
UPDATE "device_commands" SET "handed_over_at" = "sent_at" WHERE "sent_at" IS NOT NULL;
