-- Barrier search by words (issue 12): every word of the query is a prefix of some word of the address, in
-- any order, whatever the punctuation, case, ё/е and abbreviations (ул = улица, д = дом, пр-т = проспект…).
-- barrier_search_text reduces a text to lower-case words of letters or digits (Cyrillic lowered by translate,
-- so that it does not depend on the database's locale; "д.7к2" → "д 7 к 2"); barrier_search_vector adds
-- the other forms of each abbreviation to the address's words; barrier_search_query makes each word of a
-- search a prefix (`тверск:*`), all of them required. The vector is a stored column with a GIN index.
create or replace function barrier_search_text(input text) returns text
language sql immutable parallel safe strict
as $$
select trim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
  lower(translate(input, 'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯё', 'абвгдеежзийклмнопрстуфхцчшщъыьэюяе')),
  '(^|[^а-яa-z0-9])пр-к?т([^а-яa-z0-9]|$)', '\1проспект\2', 'g'),
  '(^|[^а-яa-z0-9])пр-д([^а-яa-z0-9]|$)', '\1проезд\2', 'g'),
  '(^|[^а-яa-z0-9])б-р([^а-яa-z0-9]|$)', '\1бульвар\2', 'g'),
  '(^|[^а-яa-z0-9])р-н([^а-яa-z0-9]|$)', '\1район\2', 'g'),
  '(^|[^а-яa-z0-9])мкр-н([^а-яa-z0-9]|$)', '\1микрорайон\2', 'g'),
  '([0-9])([а-яa-z])', '\1 \2', 'g'),
  '([а-яa-z])([0-9])', '\1 \2', 'g'),
  '[^а-яa-z0-9]+', ' ', 'g'))
$$;--> statement-breakpoint
create or replace function barrier_search_forms(word text) returns text[]
language sql immutable parallel safe strict
as $$
select forms from (values
  (array['г', 'город']), (array['ул', 'улица']), (array['д', 'дом']),
  (array['пр', 'просп', 'проспект']), (array['ш', 'шоссе']), (array['пер', 'переулок']),
  (array['наб', 'набережная']), (array['пл', 'площадь']), (array['бул', 'бульв', 'бульвар']),
  (array['к', 'корп', 'корпус']), (array['стр', 'строение']), (array['мкр', 'микрорайон']),
  (array['обл', 'область']), (array['пос', 'поселок']), (array['туп', 'тупик']), (array['кв', 'квартира'])
) as synonyms(forms) where word = any(forms)
$$;--> statement-breakpoint
create or replace function barrier_search_vector(address text) returns tsvector
language sql immutable parallel safe strict
as $$
select array_to_tsvector(coalesce(array_agg(form), '{}'))
from unnest(string_to_array(public.barrier_search_text(address), ' ')) as word
cross join lateral unnest(coalesce(public.barrier_search_forms(word), array[word])) as form
where word <> ''
$$;--> statement-breakpoint
-- A known abbreviation or street type followed by more words ("ул" in "ул Ленина") is matched as a whole
-- word: as a prefix ("ул:*", "д:*") it would read the index entries of nearly every barrier. The last word
-- is always a prefix, as it may still be being typed ("д" → "Дмитровская").
create or replace function barrier_search_query(search text) returns tsquery
language sql immutable parallel safe strict
as $$
select string_agg(
  quote_literal(word) || case when n < total and public.barrier_search_forms(word) is not null then '' else ':*' end,
  ' & ' order by n
)::tsquery
from (
  select word, n, count(*) over () as total
  from unnest(string_to_array(public.barrier_search_text(search), ' ')) with ordinality as words(word, n)
  where word <> ''
) as words
$$;--> statement-breakpoint
ALTER TABLE "barriers" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (barrier_search_vector(address)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "barriers_search_vector_idx" ON "barriers" USING gin ("search_vector");--> statement-breakpoint
-- The substring search it replaces.
drop index if exists "barriers_address_trgm_idx";
