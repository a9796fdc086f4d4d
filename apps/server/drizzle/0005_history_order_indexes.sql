DROP INDEX "actions_barrier_created_idx";--> statement-breakpoint
DROP INDEX "actions_barrier_type_created_idx";--> statement-breakpoint
DROP INDEX "actions_owner_barrier_created_idx";--> statement-breakpoint
CREATE INDEX "actions_barrier_created_idx" ON "actions" USING btree ("barrier_id","created_at","id");--> statement-breakpoint
CREATE INDEX "actions_barrier_type_created_idx" ON "actions" USING btree ("barrier_id","action_type","created_at","id");--> statement-breakpoint
CREATE INDEX "actions_owner_barrier_created_idx" ON "actions" USING btree ("phone_owner_id","barrier_id","created_at","id");