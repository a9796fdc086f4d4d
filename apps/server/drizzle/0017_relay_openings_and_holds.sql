CREATE TABLE "emergency_hold_barriers" (
	"hold_id" integer NOT NULL,
	"barrier_id" integer NOT NULL,
	"refused" text,
	"previous_relay_seconds" integer,
	CONSTRAINT "emergency_hold_barriers_hold_id_barrier_id_pk" PRIMARY KEY("hold_id","barrier_id")
);
--> statement-breakpoint
CREATE TABLE "emergency_holds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "emergency_holds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"started_by" integer,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" integer
);
--> statement-breakpoint
CREATE TABLE "gate_openings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gate_openings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"user_id" integer,
	"via" text NOT NULL,
	"command_id" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"failure" text,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "gate_openings_via" CHECK ("gate_openings"."via" in ('app', 'admin')),
	CONSTRAINT "gate_openings_status" CHECK ("gate_openings"."status" in ('sent', 'confirmed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "emergency_hold_barriers" ADD CONSTRAINT "emergency_hold_barriers_hold_id_emergency_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."emergency_holds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_hold_barriers" ADD CONSTRAINT "emergency_hold_barriers_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_holds" ADD CONSTRAINT "emergency_holds_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_holds" ADD CONSTRAINT "emergency_holds_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_openings" ADD CONSTRAINT "gate_openings_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_openings" ADD CONSTRAINT "gate_openings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_openings" ADD CONSTRAINT "gate_openings_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emergency_hold_barriers_barrier_idx" ON "emergency_hold_barriers" USING btree ("barrier_id","hold_id");--> statement-breakpoint
CREATE INDEX "emergency_holds_started_by_idx" ON "emergency_holds" USING btree ("started_by","id");--> statement-breakpoint
CREATE INDEX "gate_openings_barrier_idx" ON "gate_openings" USING btree ("barrier_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "gate_openings_user_idx" ON "gate_openings" USING btree ("user_id","barrier_id","requested_at","id");