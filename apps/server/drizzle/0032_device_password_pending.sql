ALTER TABLE "barriers" ADD COLUMN "device_password_pending_encrypted" text;--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "device_password_previous_encrypted" text;--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "device_password_changed_at" timestamp with time zone;