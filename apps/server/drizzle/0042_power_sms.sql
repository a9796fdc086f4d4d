CREATE TABLE "power_sms_notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "power_sms_notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"text" text NOT NULL,
	"sms" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "power_sms_notices_status" CHECK ("power_sms_notices"."status" in ('queued', 'sent', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "device_messages" DROP CONSTRAINT "device_messages_direction";--> statement-breakpoint
ALTER TABLE "device_messages" DROP CONSTRAINT "device_messages_outcome";--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "power_sms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "power_sms_notices" ADD CONSTRAINT "power_sms_notices_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "power_sms_notices" ADD CONSTRAINT "power_sms_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "power_sms_notices_barrier_created_idx" ON "power_sms_notices" USING btree ("barrier_id","created_at");--> statement-breakpoint
CREATE INDEX "power_sms_notices_user_barrier_idx" ON "power_sms_notices" USING btree ("user_id","barrier_id","event_id");--> statement-breakpoint
ALTER TABLE "device_messages" ADD CONSTRAINT "device_messages_direction" CHECK ("device_messages"."direction" in ('out', 'in', 'notice'));--> statement-breakpoint
ALTER TABLE "device_messages" ADD CONSTRAINT "device_messages_outcome" CHECK (("device_messages"."direction" = 'out' and "device_messages"."outcome" in ('sent', 'gateway_failed')) or ("device_messages"."direction" = 'notice' and "device_messages"."outcome" in ('notice_sent', 'notice_over_limit', 'notice_daily_limit')) or ("device_messages"."direction" = 'in' and "device_messages"."outcome" in ('confirmed', 'refused', 'format_error', 'unrecognised', 'late', 'acknowledged', 'power_failure', 'power_restored', 'alarm')));