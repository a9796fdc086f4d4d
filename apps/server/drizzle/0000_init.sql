CREATE TYPE "public"."access_request_initiator" AS ENUM('user', 'admin');--> statement-breakpoint
CREATE TYPE "public"."access_request_status" AS ENUM('pending', 'accepted', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."action_author" AS ENUM('user', 'admin', 'system');--> statement-breakpoint
CREATE TYPE "public"."action_type" AS ENUM('add_phone', 'delete_phone', 'update_phone', 'barrier_setting');--> statement-breakpoint
CREATE TYPE "public"."device_command_status" AS ENUM('queued', 'sent', 'confirmed', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."phone_privacy" AS ENUM('public', 'protected', 'private');--> statement-breakpoint
CREATE TYPE "public"."phone_status" AS ENUM('pending', 'ok', 'error');--> statement-breakpoint
CREATE TYPE "public"."phone_type" AS ENUM('primary', 'permanent', 'temporary', 'schedule');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('user', 'admin');--> statement-breakpoint
CREATE TYPE "public"."verification_mode" AS ENUM('login', 'reset_password', 'change_phone_old', 'change_phone_new', 'change_password', 'delete_account');--> statement-breakpoint
CREATE TYPE "public"."verification_status" AS ENUM('sent', 'verified', 'used');--> statement-breakpoint
CREATE TABLE "access_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "access_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"barrier_id" integer NOT NULL,
	"initiator" "access_request_initiator" NOT NULL,
	"status" "access_request_status" DEFAULT 'pending' NOT NULL,
	"hidden_for_user" boolean DEFAULT false NOT NULL,
	"hidden_for_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"phone_id" integer,
	"phone_owner_id" integer,
	"action_type" "action_type" NOT NULL,
	"author" "action_author" NOT NULL,
	"author_user_id" integer,
	"reason" text,
	"old_value" jsonb,
	"new_value" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_blocks" (
	"admin_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_blocks_admin_id_user_id_pk" PRIMARY KEY("admin_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "auth_failures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auth_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"phone" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "barrier_access" (
	"barrier_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "barrier_access_barrier_id_user_id_pk" PRIMARY KEY("barrier_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "barrier_limits" (
	"barrier_id" integer PRIMARY KEY NOT NULL,
	"user_phone_limit" integer,
	"user_temp_phone_limit" integer,
	"global_temp_phone_limit" integer,
	"user_schedule_phone_limit" integer,
	"global_schedule_phone_limit" integer,
	"schedule_interval_limit" integer,
	"sms_weekly_limit" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "barriers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "barriers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_id" integer NOT NULL,
	"address" text NOT NULL,
	"device_phone" text NOT NULL,
	"device_model" text NOT NULL,
	"device_password_encrypted" text,
	"device_phones_amount" integer NOT NULL,
	"additional_info" text DEFAULT '' NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"device_clock_set_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "barriers_phones_amount_range" CHECK ("barriers"."device_phones_amount" between 1 and 10000)
);
--> statement-breakpoint
CREATE TABLE "device_commands" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"phone_id" integer,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" "device_command_status" DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"reply" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_slots" (
	"barrier_id" integer NOT NULL,
	"slot" integer NOT NULL,
	"number" text NOT NULL,
	"window_start" timestamp with time zone,
	"window_end" timestamp with time zone,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_slots_barrier_id_slot_pk" PRIMARY KEY("barrier_id","slot")
);
--> statement-breakpoint
CREATE TABLE "inbound_sms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_sms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"from_phone" text NOT NULL,
	"text" text NOT NULL,
	"command_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phones" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "phones_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"barrier_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"phone" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"type" "phone_type" NOT NULL,
	"slot" integer,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"schedule" jsonb,
	"status" "phone_status" DEFAULT 'pending' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"phone" text NOT NULL,
	"full_name" text,
	"phone_privacy" "phone_privacy" DEFAULT 'public' NOT NULL,
	"role" "role" DEFAULT 'user' NOT NULL,
	"password_hash" text,
	"password_verified_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"block_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"phone" text NOT NULL,
	"mode" "verification_mode" NOT NULL,
	"code_hash" text NOT NULL,
	"token_hash" text NOT NULL,
	"status" "verification_status" DEFAULT 'sent' NOT NULL,
	"failed_attempts" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_phone_id_phones_id_fk" FOREIGN KEY ("phone_id") REFERENCES "public"."phones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_phone_owner_id_users_id_fk" FOREIGN KEY ("phone_owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_blocks" ADD CONSTRAINT "admin_blocks_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_blocks" ADD CONSTRAINT "admin_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barrier_access" ADD CONSTRAINT "barrier_access_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barrier_access" ADD CONSTRAINT "barrier_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barrier_limits" ADD CONSTRAINT "barrier_limits_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barriers" ADD CONSTRAINT "barriers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_phone_id_phones_id_fk" FOREIGN KEY ("phone_id") REFERENCES "public"."phones"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_slots" ADD CONSTRAINT "device_slots_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_sms" ADD CONSTRAINT "inbound_sms_command_id_device_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."device_commands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phones" ADD CONSTRAINT "phones_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phones" ADD CONSTRAINT "phones_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_requests_one_pending" ON "access_requests" USING btree ("user_id","barrier_id") WHERE "access_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "access_requests_user_idx" ON "access_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "access_requests_barrier_idx" ON "access_requests" USING btree ("barrier_id","created_at");--> statement-breakpoint
CREATE INDEX "actions_barrier_created_idx" ON "actions" USING btree ("barrier_id","created_at");--> statement-breakpoint
CREATE INDEX "actions_barrier_type_created_idx" ON "actions" USING btree ("barrier_id","action_type","created_at");--> statement-breakpoint
CREATE INDEX "actions_owner_barrier_created_idx" ON "actions" USING btree ("phone_owner_id","barrier_id","created_at");--> statement-breakpoint
CREATE INDEX "auth_failures_phone_created_idx" ON "auth_failures" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "barrier_access_user_idx" ON "barrier_access" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "barriers_device_phone_live_unique" ON "barriers" USING btree ("device_phone") WHERE "barriers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "barriers_owner_idx" ON "barriers" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "barriers_address_idx" ON "barriers" USING btree ("address");--> statement-breakpoint
CREATE INDEX "device_commands_barrier_status_idx" ON "device_commands" USING btree ("barrier_id","status","id");--> statement-breakpoint
CREATE INDEX "device_commands_created_idx" ON "device_commands" USING btree ("barrier_id","created_at");--> statement-breakpoint
CREATE INDEX "inbound_sms_from_idx" ON "inbound_sms" USING btree ("from_phone","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "phones_barrier_slot_unique" ON "phones" USING btree ("barrier_id","slot") WHERE "phones"."slot" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "phones_barrier_number_active_unique" ON "phones" USING btree ("barrier_id","phone") WHERE "phones"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "phones_primary_per_user_unique" ON "phones" USING btree ("barrier_id","user_id") WHERE "phones"."is_active" and "phones"."type" = 'primary';--> statement-breakpoint
CREATE INDEX "phones_user_barrier_idx" ON "phones" USING btree ("user_id","barrier_id");--> statement-breakpoint
CREATE INDEX "phones_barrier_active_idx" ON "phones" USING btree ("barrier_id","is_active");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_refresh_token_hash_unique" ON "sessions" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_live_unique" ON "users" USING btree ("phone") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_token_hash_unique" ON "verifications" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "verifications_phone_mode_created_idx" ON "verifications" USING btree ("phone","mode","created_at");