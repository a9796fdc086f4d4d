DROP INDEX "barriers_device_phone_live_unique";--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "device_confirmed_at" timestamp with time zone;--> statement-breakpoint
-- Barriers whose unit already confirmed a command own their device number from that first confirmation.
UPDATE "barriers" AS b SET "device_confirmed_at" = c.first_confirmed
FROM (SELECT "barrier_id", min(coalesce("finished_at", "created_at")) AS first_confirmed
  FROM "device_commands" WHERE "status" = 'confirmed' GROUP BY "barrier_id") AS c
WHERE c.barrier_id = b.id;
