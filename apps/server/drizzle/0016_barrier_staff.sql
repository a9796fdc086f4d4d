CREATE TYPE "public"."staff_role" AS ENUM('manager', 'operator', 'dispatcher');--> statement-breakpoint
CREATE TABLE "barrier_staff" (
	"barrier_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" "staff_role" NOT NULL,
	"added_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "barrier_staff_barrier_id_user_id_pk" PRIMARY KEY("barrier_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "barrier_staff" ADD CONSTRAINT "barrier_staff_barrier_id_barriers_id_fk" FOREIGN KEY ("barrier_id") REFERENCES "public"."barriers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barrier_staff" ADD CONSTRAINT "barrier_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "barrier_staff" ADD CONSTRAINT "barrier_staff_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "barrier_staff_user_idx" ON "barrier_staff" USING btree ("user_id","barrier_id");