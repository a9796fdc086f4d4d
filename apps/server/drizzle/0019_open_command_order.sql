ALTER TABLE "device_commands" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "barriers_device_phone_idx" ON "barriers" USING btree ("device_phone");--> statement-breakpoint
CREATE INDEX "device_commands_open_order_idx" ON "device_commands" USING btree ((case when "kind" in ('relay_hold', 'relay_release') then -1 when "kind" = 'delete' then 0 else 1 end),coalesce("due_at", "created_at"),"barrier_id") WHERE status in ('queued', 'sent');--> statement-breakpoint
CREATE INDEX "device_commands_queued_hold_idx" ON "device_commands" USING btree ("barrier_id","id") WHERE status = 'queued' and kind in ('relay_hold', 'relay_release');--> statement-breakpoint
-- Open commands stored before this migration: a window's start is their deadline (as the order computed it).
UPDATE "device_commands" SET "due_at" = ("payload"->'window'->>'start')::timestamptz
  WHERE status in ('queued', 'sent') AND "payload"->'window'->>'start' IS NOT NULL;
