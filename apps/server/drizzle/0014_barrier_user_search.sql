-- Barrier-user search (issue 15 part 6): barrier_access keeps copies of its user's lower(full_name) and
-- phone, so that a search within one barrier's users is an index-only scan of that barrier's entries of
-- barrier_access_barrier_created_search_idx instead of a probe of every user's row. The database keeps the
-- copies (no code path can forget them): filled on insert, rewritten when a user's name or phone changes.
ALTER TABLE "barrier_access" ADD COLUMN "search_name" text;--> statement-breakpoint
ALTER TABLE "barrier_access" ADD COLUMN "search_phone" text;--> statement-breakpoint
create or replace function barrier_access_search_fill() returns trigger
language plpgsql
as $$
begin
  select lower(u.full_name), u.phone into new.search_name, new.search_phone from users u where u.id = new.user_id;
  return new;
end
$$;--> statement-breakpoint
create trigger barrier_access_search_fill before insert or update of user_id on barrier_access
for each row execute function barrier_access_search_fill();--> statement-breakpoint
create or replace function users_search_copy() returns trigger
language plpgsql
as $$
begin
  update barrier_access set search_name = lower(new.full_name), search_phone = new.phone
  where user_id = new.id;
  return null;
end
$$;--> statement-breakpoint
create trigger users_search_copy after update of full_name, phone on users
for each row when (old.full_name is distinct from new.full_name or old.phone is distinct from new.phone)
execute function users_search_copy();--> statement-breakpoint
UPDATE "barrier_access" a SET "search_name" = lower(u."full_name"), "search_phone" = u."phone"
FROM "users" u WHERE u."id" = a."user_id";--> statement-breakpoint
DROP INDEX "barrier_access_barrier_created_idx";--> statement-breakpoint
CREATE INDEX "barrier_access_barrier_created_search_idx" ON "barrier_access" USING btree ("barrier_id","created_at","user_id","search_name","search_phone");
