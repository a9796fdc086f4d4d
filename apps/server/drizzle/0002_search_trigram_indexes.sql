-- Case-insensitive substring search (ILIKE '%…%', Cyrillic included) on barrier addresses and on the names
-- and phones of a barrier's users, backed by trigram GIN indexes.
create extension if not exists pg_trgm;--> statement-breakpoint
create index if not exists "barriers_address_trgm_idx" on "barriers" using gin ("address" gin_trgm_ops);--> statement-breakpoint
create index if not exists "users_full_name_trgm_idx" on "users" using gin ("full_name" gin_trgm_ops);--> statement-breakpoint
create index if not exists "users_phone_trgm_idx" on "users" using gin ("phone" gin_trgm_ops);--> statement-breakpoint
create index if not exists "barriers_public_live_idx" on "barriers" ("id") where "is_public" and "deleted_at" is null;
