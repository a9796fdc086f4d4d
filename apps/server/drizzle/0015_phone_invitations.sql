CREATE TYPE "public"."phone_invitation_status" AS ENUM('waiting', 'claimed', 'cancelled');--> statement-breakpoint
CREATE TABLE "phone_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "phone_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"phone" text NOT NULL,
	"invited_by" integer NOT NULL,
	"status" "phone_invitation_status" DEFAULT 'waiting' NOT NULL,
	"sms_sent_at" timestamp with time zone,
	"access_request_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_invitations" ADD CONSTRAINT "phone_invitations_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_invitations" ADD CONSTRAINT "phone_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_invitations" ADD CONSTRAINT "phone_invitations_access_request_id_access_requests_id_fk" FOREIGN KEY ("access_request_id") REFERENCES "public"."access_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_invitations_one_waiting" ON "phone_invitations" USING btree ("barrier_id","phone") WHERE "phone_invitations"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "phone_invitations_phone_idx" ON "phone_invitations" USING btree ("phone","status");--> statement-breakpoint
CREATE INDEX "phone_invitations_sms_sent_idx" ON "phone_invitations" USING btree ("sms_sent_at") WHERE "phone_invitations"."sms_sent_at" is not null;--> statement-breakpoint
CREATE INDEX "phone_invitations_invited_by_idx" ON "phone_invitations" USING btree ("invited_by","created_at");