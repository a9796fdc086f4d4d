CREATE TABLE "device_checks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"requested_by" integer,
	"status" text DEFAULT 'reading' NOT NULL,
	"full" boolean DEFAULT false NOT NULL,
	"auto_repair" boolean DEFAULT false NOT NULL,
	"queries" jsonb NOT NULL,
	"reading" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"numbers" jsonb,
	"answered" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "device_checks_status" CHECK ("device_checks"."status" in ('reading', 'ready', 'failed', 'repaired', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "device_profile" jsonb;--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "device_audit_days" integer;--> statement-breakpoint
ALTER TABLE "device_checks" ADD CONSTRAINT "device_checks_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_checks" ADD CONSTRAINT "device_checks_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_checks_barrier_idx" ON "device_checks" USING btree ("barrier_id","id");--> statement-breakpoint
ALTER TABLE "barriers" ADD CONSTRAINT "barriers_device_audit_days" CHECK ("barriers"."device_audit_days" between 1 and 90);