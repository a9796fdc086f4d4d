CREATE TABLE "sms_gateway_buckets" (
	"name" text PRIMARY KEY NOT NULL,
	"rate_per_minute" double precision NOT NULL,
	"burst" double precision NOT NULL,
	"tokens" double precision NOT NULL,
	"refilled_at" timestamp with time zone NOT NULL,
	"down_until" timestamp with time zone,
	"sent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "gateway" text;--> statement-breakpoint
CREATE INDEX "device_commands_open_idx" ON "device_commands" USING btree ("barrier_id","id") WHERE status in ('queued', 'sent');--> statement-breakpoint
CREATE INDEX "device_commands_queued_delete_idx" ON "device_commands" USING btree ("barrier_id","id") WHERE status = 'queued' and kind = 'delete';