CREATE TABLE "invitation_mutes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invitation_mutes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"admin_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "barriers_device_phone_live_unique";--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "device_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invitation_mutes" ADD CONSTRAINT "invitation_mutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_mutes" ADD CONSTRAINT "invitation_mutes_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitation_mutes_user_admin_unique" ON "invitation_mutes" USING btree ("user_id","admin_id");--> statement-breakpoint
-- Barriers whose unit already confirmed a command own their device number from that first confirmation.
UPDATE "barriers" AS b SET "device_confirmed_at" = c.first_confirmed
FROM (SELECT "barrier_id", min(coalesce("finished_at", "created_at")) AS first_confirmed
  FROM "device_commands" WHERE "status" = 'confirmed' GROUP BY "barrier_id") AS c
WHERE c.barrier_id = b.id;
