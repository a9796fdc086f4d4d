ALTER TABLE "device_commands" ADD COLUMN "sms_per_attempt" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Commands planned before the column: their cost by the rule @propusk/devices/cost applied when this was
-- written (RTU5024-HASH reads every change back; TELL-GC20 reads its deletes back). New rows get it from the outbox.
UPDATE "device_commands" AS c SET "sms_per_attempt" = 2
FROM "barriers" AS b
WHERE b."id" = c."barrier_id"
  AND ((b."device_model" = 'RTU5024-HASH' AND c."kind" IN ('add', 'add_window', 'delete'))
    OR (b."device_model" = 'TELL-GC20' AND c."kind" = 'delete'));
