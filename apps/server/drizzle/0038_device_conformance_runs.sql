CREATE TABLE "device_conformance_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_conformance_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"requested_by" integer,
	"status" text DEFAULT 'running' NOT NULL,
	"stop_requested" boolean DEFAULT false NOT NULL,
	"slot" integer NOT NULL,
	"test_number" text NOT NULL,
	"include_password" boolean DEFAULT false NOT NULL,
	"utc_offset_minutes" integer NOT NULL,
	"steps" jsonb NOT NULL,
	"end_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "device_conformance_runs_status" CHECK ("device_conformance_runs"."status" in ('running', 'finished', 'stopped'))
);
--> statement-breakpoint
ALTER TABLE "device_conformance_runs" ADD CONSTRAINT "device_conformance_runs_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_conformance_runs" ADD CONSTRAINT "device_conformance_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_conformance_runs_barrier_idx" ON "device_conformance_runs" USING btree ("barrier_id","id");