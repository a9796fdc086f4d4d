CREATE TABLE "device_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"direction" text NOT NULL,
	"text" text NOT NULL,
	"command_id" integer,
	"outcome" text NOT NULL,
	"provider_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_messages_direction" CHECK ("device_messages"."direction" in ('out', 'in')),
	CONSTRAINT "device_messages_outcome" CHECK (("device_messages"."direction" = 'out' and "device_messages"."outcome" in ('sent', 'gateway_failed')) or ("device_messages"."direction" = 'in' and "device_messages"."outcome" in ('confirmed', 'refused', 'format_error', 'unrecognised')))
);
--> statement-breakpoint
ALTER TABLE "device_messages" ADD CONSTRAINT "device_messages_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_messages" ADD CONSTRAINT "device_messages_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_messages_barrier_idx" ON "device_messages" USING btree ("barrier_id","id");--> statement-breakpoint
CREATE INDEX "device_messages_barrier_outcome_idx" ON "device_messages" USING btree ("barrier_id","outcome","id");