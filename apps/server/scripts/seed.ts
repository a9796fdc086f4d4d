/**
 * `npm run seed [-- --reset] [--scale 1] [--batch 10000]`: fills a PostgreSQL database (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/propusk_bench, created if missing) with data at the scale of issue 3:
 * about 100,000 barriers, 100,000 users, 1,000,000 phones and 1,000,000 actions.
 *
 * Everything is set-based SQL (`insert … select … from generate_series`), one transaction per batch of
 * barriers, two batches at a time. The data is deterministic (hashint8 of row keys instead of random()), so
 * two runs give the same database and the bench picks the same users.
 *
 * Shape of the data:
 * - 1% of users are administrators; administrator i owns barriers i, i+A, i+2A… (A = number of admins).
 * - Every barrier has its owner's access and primary phone; a small barrier has 1–5 more users, every
 *   hundredth barrier is a big residential one with 300 users (these make the admin's user list and the
 *   history of a barrier long).
 * - Each non-owner access has a primary phone (the user's number) and 0–2 extra phones (permanent,
 *   temporary, schedule), 10% of the extras already removed (slot freed, `deleted_at` set); active phones have
 *   slots 1..n unique per barrier, as the device would.
 * - Actions: an add for every phone, a delete for every removed one, some updates, some barrier settings,
 *   spread over the three years the barriers have existed.
 */
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { applyMigrations, openDatabase } from '../src/db/database.ts';
import { Secrets } from '../src/lib/secrets.ts';
import {
  BENCH_SECRET_KEY,
  benchDatabaseUrl,
  ensureDatabase,
  formatCount,
  formatSeconds,
  numberArgument,
  parseArguments,
  SEEDED_ADMIN_PASSWORD,
  SEEDED_DEVICE_PASSWORD,
} from './bench-lib.ts';

const MALE_FIRST_NAMES = [
  'Александр',
  'Дмитрий',
  'Максим',
  'Сергей',
  'Андрей',
  'Алексей',
  'Артём',
  'Илья',
  'Кирилл',
  'Михаил',
  'Никита',
  'Матвей',
  'Роман',
  'Егор',
  'Иван',
  'Денис',
  'Евгений',
  'Даниил',
  'Тимофей',
  'Владислав',
  'Игорь',
  'Владимир',
  'Павел',
  'Руслан',
  'Константин',
  'Николай',
  'Олег',
  'Виктор',
];
const FEMALE_FIRST_NAMES = [
  'Анастасия',
  'Мария',
  'Анна',
  'Виктория',
  'Екатерина',
  'Наталья',
  'Марина',
  'Полина',
  'Дарья',
  'Алина',
  'Ирина',
  'Елена',
  'Ольга',
  'Татьяна',
  'Юлия',
  'Ксения',
  'Светлана',
  'Александра',
  'Вероника',
  'Людмила',
];
/** Surnames whose feminine form adds 'а'. */
const SURNAMES = [
  'Иванов',
  'Смирнов',
  'Кузнецов',
  'Попов',
  'Васильев',
  'Петров',
  'Соколов',
  'Михайлов',
  'Новиков',
  'Фёдоров',
  'Морозов',
  'Волков',
  'Алексеев',
  'Лебедев',
  'Семёнов',
  'Егоров',
  'Павлов',
  'Козлов',
  'Степанов',
  'Николаев',
  'Орлов',
  'Андреев',
  'Макаров',
  'Никитин',
  'Захаров',
  'Зайцев',
  'Соловьёв',
  'Борисов',
  'Яковлев',
  'Григорьев',
  'Романов',
  'Воробьёв',
  'Сергеев',
  'Кузьмин',
  'Фролов',
  'Александров',
  'Дмитриев',
  'Королёв',
  'Гусев',
  'Киселёв',
  'Ильин',
  'Максимов',
  'Поляков',
  'Сорокин',
  'Виноградов',
  'Ковалёв',
  'Белов',
  'Медведев',
  'Антонов',
  'Тарасов',
  'Жуков',
  'Баранов',
  'Филиппов',
  'Комаров',
  'Давыдов',
  'Беляев',
  'Герасимов',
  'Богданов',
  'Осипов',
  'Сидоров',
];
/** Repeated entries weigh the big cities. */
const CITIES = [
  'г. Москва',
  'г. Москва',
  'г. Москва',
  'г. Москва',
  'г. Москва',
  'г. Москва',
  'г. Санкт-Петербург',
  'г. Санкт-Петербург',
  'г. Санкт-Петербург',
  'г. Новосибирск',
  'г. Екатеринбург',
  'г. Казань',
  'г. Нижний Новгород',
  'г. Челябинск',
  'г. Самара',
  'г. Омск',
  'г. Ростов-на-Дону',
  'г. Уфа',
  'г. Красноярск',
  'г. Воронеж',
  'г. Пермь',
  'г. Волгоград',
  'г. Краснодар',
  'г. Тюмень',
  'г. Саратов',
  'г. Тула',
  'г. Ярославль',
  'г. Химки',
  'г. Мытищи',
  'г. Балашиха',
  'г. Подольск',
];
const STREET_TYPES = ['ул.', 'ул.', 'ул.', 'ул.', 'ул.', 'ул.', 'пр-т', 'пер.', 'б-р', 'ш.', 'наб.'];
const STREETS = [
  'Ленина',
  'Мира',
  'Советская',
  'Садовая',
  'Гагарина',
  'Пушкина',
  'Лермонтова',
  'Гоголя',
  'Чехова',
  'Толстого',
  'Некрасова',
  'Горького',
  'Кирова',
  'Калинина',
  'Победы',
  'Молодёжная',
  'Центральная',
  'Школьная',
  'Лесная',
  'Новая',
  'Набережная',
  'Заводская',
  'Солнечная',
  'Зелёная',
  'Полевая',
  'Луговая',
  'Парковая',
  'Октябрьская',
  'Первомайская',
  'Комсомольская',
  'Пионерская',
  'Строителей',
  'Космонавтов',
  'Энтузиастов',
  'Маяковского',
  'Чапаева',
  'Суворова',
  'Кутузова',
  'Фрунзе',
  'Свердлова',
  'Куйбышева',
  'Островского',
  'Тургенева',
  'Достоевского',
  'Есенина',
  'Блока',
  'Ломоносова',
  'Менделеева',
  'Циолковского',
  'Вавилова',
  'Мичурина',
  'Жуковского',
  'Крылова',
  'Глинки',
  'Чайковского',
  'Римского-Корсакова',
  'Шолохова',
  'Маршала Жукова',
  'Академика Королёва',
  'Профсоюзная',
  'Вернадского',
  'Ленинградская',
  'Московская',
  'Уральская',
  'Сибирская',
  'Волжская',
  'Донская',
  'Кубанская',
  'Северная',
  'Южная',
  'Восточная',
  'Западная',
  'Речная',
  'Озёрная',
  'Берёзовая',
  'Рябиновая',
  'Сиреневая',
  'Вишнёвая',
  'Яблоневая',
  'Сосновая',
  'Кленовая',
  'Липовая',
  'Дубовая',
  'Тополиная',
  'Цветочная',
  'Весенняя',
  'Летняя',
  'Осенняя',
  'Майская',
  'Звёздная',
  'Светлая',
  'Тихая',
  'Дружбы',
  'Труда',
  'Свободы',
  'Интернациональная',
  'Пролетарская',
  'Рабочая',
  'Спортивная',
  'Студенческая',
  'Университетская',
  'Вокзальная',
  'Железнодорожная',
  'Почтовая',
  'Торговая',
  'Рыночная',
  'Кооперативная',
  'Фабричная',
  'Мельничная',
  'Кузнечная',
];
const BARRIER_NOTES = [
  '',
  '',
  '',
  'Въезд со двора',
  'Шлагбаум у второго подъезда',
  'Парковка ТСЖ',
  'Въезд на территорию ЖК',
  'Служебный въезд',
  'Ворота паркинга',
  'Въезд со стороны школы',
];
const EXTRA_PHONE_NAMES = [
  'Жена',
  'Муж',
  'Сын',
  'Дочь',
  'Мама',
  'Папа',
  'Бабушка',
  'Дедушка',
  'Брат',
  'Сестра',
  'Няня',
  'Водитель',
  'Курьер',
  'Гость',
  'Домработница',
  'Сосед',
];
const SCHEDULES = [
  { monday: [{ start_time: '08:00', end_time: '12:00' }] },
  {
    monday: [{ start_time: '09:00', end_time: '18:00' }],
    tuesday: [{ start_time: '09:00', end_time: '18:00' }],
    wednesday: [{ start_time: '09:00', end_time: '18:00' }],
    thursday: [{ start_time: '09:00', end_time: '18:00' }],
    friday: [{ start_time: '09:00', end_time: '18:00' }],
  },
  {
    saturday: [{ start_time: '10:00', end_time: '14:00' }],
    sunday: [{ start_time: '10:00', end_time: '14:00' }],
  },
  {
    monday: [
      { start_time: '07:30', end_time: '09:00' },
      { start_time: '17:00', end_time: '19:30' },
    ],
    wednesday: [
      { start_time: '07:30', end_time: '09:00' },
      { start_time: '17:00', end_time: '19:30' },
    ],
    friday: [
      { start_time: '07:30', end_time: '09:00' },
      { start_time: '17:00', end_time: '19:30' },
    ],
  },
];
const SETTINGS = [
  { setting: 'open_mode', params: { mode: 'whitelist' } },
  { setting: 'relay_time', params: { seconds: '3' } },
  { setting: 'set_clock', params: {} },
];

/** Sizes of the seeded database; `--scale 0.1` makes one tenth of each for a quick try. */
interface SeedSizes {
  users: number;
  admins: number;
  barriers: number;
  batch: number;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const textArray = (values: string[]) => `array[${values.map(literal).join(',')}]::text[]`;
/** A deterministic number in [0, modulo) from a bigint SQL expression. */
const h = (expression: string, modulo: number) =>
  `((hashint8((${expression})::bigint)::bigint + 2147483648) % ${modulo})`;
/** One element of a constant list, chosen by a hash of the expression. */
const pick = (values: string[], expression: string) =>
  `(${textArray(values)})[1 + ${h(expression, values.length)}]`;
/** A fraction in [0, 1) from a hash. */
const fraction = (expression: string) => `(${h(expression, 1000)}::float8 / 1000)`;

/** Application tables, children first (truncate order does not matter with cascade, but it reads well). */
async function listApplicationTables(client: pg.PoolClient): Promise<string[]> {
  const result = await client.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public' order by tablename",
  );
  return result.rows.map((row) => row.tablename);
}

interface Step {
  table: string;
  /** SQL for one batch; `$1`, `$2` are the first and last key of the batch. */
  sql: string;
  /** Inclusive key range split into batches. */
  range: [number, number];
  params?: unknown[];
}

async function runStep(pool: pg.Pool, step: Step, batch: number): Promise<number> {
  const started = performance.now();
  const batches: [number, number][] = [];
  for (let low = step.range[0]; low <= step.range[1]; low += batch) {
    batches.push([low, Math.min(step.range[1], low + batch - 1)]);
  }
  let inserted = 0;
  let next = 0;
  // Two batches at a time: one per core of the PostgreSQL server on this machine.
  const worker = async () => {
    while (next < batches.length) {
      const [low, high] = batches[next] as [number, number];
      next += 1;
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await client.query(step.sql, [low, high, ...(step.params ?? [])]);
        await client.query('commit');
        inserted += result.rowCount ?? 0;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    }
  };
  await Promise.all([worker(), worker()]);
  const elapsed = performance.now() - started;
  process.stdout.write(
    `${step.table.padEnd(16)} ${formatCount(inserted).padStart(11)} rows  ${formatSeconds(elapsed).padStart(8)}\n`,
  );
  return inserted;
}

function buildSteps(sizes: SeedSizes, adminPasswordHash: string, devicePasswordCipher: string): Step[] {
  const { users: U, admins: A, barriers: B } = sizes;
  const userSpan = U - A;

  const usersSql = `
    insert into users (id, phone, full_name, phone_privacy, role, password_hash, created_at, updated_at)
    overriding system value
    select i,
      '+790' || lpad(((i::bigint * 7919) % 100000000)::text, 8, '0'),
      case
        when ${h('i * 11 + 1', 10)} = 0 then null
        when ${h('i * 11 + 2', 2)} = 0 then ${pick(MALE_FIRST_NAMES, 'i * 11 + 3')} || ' ' || ${pick(SURNAMES, 'i * 11 + 4')}
        else ${pick(FEMALE_FIRST_NAMES, 'i * 11 + 3')} || ' ' || ${pick(SURNAMES, 'i * 11 + 4')} || 'а'
      end,
      (case ${h('i * 11 + 5', 10)} when 0 then 'private' when 1 then 'protected' when 2 then 'protected'
        else 'public' end)::phone_privacy,
      (case when i <= ${A} then 'admin' else 'user' end)::role,
      case when i <= ${A} then $3 end,
      t.at, t.at
    from generate_series($1::int, $2::int) i
    cross join lateral (
      select now() - make_interval(days => case when i <= ${A} then 1200 else 10 end
        + ${h('i * 11 + 6', 1100)}::int, secs => ${h('i * 11 + 7', 86400)}::int) as at
    ) t`;

  const barriersSql = `
    insert into barriers (id, owner_id, address, device_phone, device_model, device_password_encrypted,
      device_phones_amount, additional_info, is_public, created_at, updated_at)
    overriding system value
    select b,
      1 + (b - 1) % ${A},
      ${pick(CITIES, 'b * 13 + 1')} || ', ' || ${pick(STREET_TYPES, 'b * 13 + 2')} || ' ' || ${pick(STREETS, 'b * 13 + 3')}
        || ', д. ' || (1 + ${h('b * 13 + 4', 150)})
        || case when ${h('b * 13 + 5', 5)} = 0 then ', к. ' || (1 + ${h('b * 13 + 6', 4)}) else '' end,
      '+792' || lpad(((b::bigint * 7919) % 100000000)::text, 8, '0'),
      m.model,
      case when m.model = 'Telemetrica' then null else $3 end,
      case when b % 100 = 0 then 999 when m.model = 'Telemetrica' then 1000 when m.model = 'RTU5024' then 200
        else (array[999, 999, 500, 300])[1 + ${h('b * 13 + 7', 4)}] end,
      ${pick(BARRIER_NOTES, 'b * 13 + 8')},
      ${h('b * 13 + 9', 10)} <> 0,
      t.at, t.at
    from generate_series($1::int, $2::int) b
    cross join lateral (
      select case when b % 100 = 0 then 'RTU5025' when b % 10 = 3 then 'Telemetrica'
        when b % 10 = 7 then 'RTU5024' else 'RTU5025' end as model
    ) m
    cross join lateral (
      select now() - make_interval(days => 30 + ${h('b * 13 + 10', 1100)}::int,
        secs => ${h('b * 13 + 11', 86400)}::int) as at
    ) t`;

  const limitsSql = `
    insert into barrier_limits (barrier_id, user_phone_limit, user_temp_phone_limit, global_temp_phone_limit,
      user_schedule_phone_limit, global_schedule_phone_limit, schedule_interval_limit, sms_weekly_limit)
    select b,
      case when limited then (array[3, 5, 10])[1 + ${h('b * 17 + 1', 3)}] end,
      case when limited then 2 end,
      case when limited then 50 end,
      case when limited then 2 end,
      case when limited then 30 end,
      case when limited then 60 end,
      case when limited then (array[100, 300, 1000])[1 + ${h('b * 17 + 2', 3)}] end
    from generate_series($1::int, $2::int) b
    cross join lateral (select ${h('b * 17 + 3', 10)} < 3 as limited) l`;

  // Non-owner users of barrier b: consecutive user ids starting at a point that jumps with b, so that each
  // user gets a handful of barriers and neighbouring barriers do not share their users.
  const accessSql = `
    insert into barrier_access (barrier_id, user_id, created_at)
    select b.id, b.owner_id, b.created_at from barriers b where b.id between $1 and $2
    union all
    select b.id, ${A} + 1 + ((b.id::bigint * 37 + k) % ${userSpan}),
      greatest(b.created_at, u.created_at)
        + (now() - greatest(b.created_at, u.created_at)) * ${fraction('b.id * 1009 + k')}
    from barriers b
    cross join lateral generate_series(1, case when b.id % 100 = 0 then ${Math.min(300, userSpan)}
      else 1 + ${h('b.id * 19 + 1', 5)}::int end) k
    join users u on u.id = ${A} + 1 + ((b.id::bigint * 37 + k) % ${userSpan})
    where b.id between $1 and $2
    on conflict do nothing`;

  // A fifth of the barriers have one more administrator of theirs (issues 14 and 16): another admin account,
  // each role in turn.
  const staffSql = `
    insert into barrier_staff (barrier_id, user_id, role, added_by, created_at)
    select b.id, s.user_id, (array['manager', 'operator', 'dispatcher'])[1 + b.id % 3]::staff_role, b.owner_id,
      b.created_at + (now() - b.created_at) * ${fraction('b.id * 29 + 1')}
    from barriers b
    cross join lateral (select 1 + ((b.owner_id + b.id) % ${A}) as user_id) s
    where b.id between $1 and $2 and ${h('b.id * 29 + 2', 100)} < 20 and s.user_id <> b.owner_id
    on conflict do nothing`;

  const scheduleArray = `array[${SCHEDULES.map((schedule) => `${literal(JSON.stringify(schedule))}::jsonb`).join(',')}]`;
  const phonesSql = `
    with acc as (
      select a.barrier_id, a.user_id, a.created_at, u.phone as user_phone,
        coalesce(u.full_name, '') as user_name, a.user_id = b.owner_id as is_owner
      from barrier_access a
      join users u on u.id = a.user_id
      join barriers b on b.id = a.barrier_id
      where a.barrier_id between $1 and $2
    ),
    extra as (
      select acc.barrier_id, acc.user_id, acc.created_at as access_at, e,
        acc.barrier_id::bigint * 1000 + row_number() over (partition by acc.barrier_id order by acc.user_id, e) as key
      from acc
      cross join lateral generate_series(1, case when acc.is_owner then 0
        else (case when ${h('acc.barrier_id::bigint * 100003 + acc.user_id', 100)} < 60 then 0
          when ${h('acc.barrier_id::bigint * 100003 + acc.user_id', 100)} < 90 then 1 else 2 end) end) e
    ),
    extra_shaped as (
      select barrier_id, user_id, key,
        '+79' || (300000000 + (key * 7919) % 700000000)::text as phone,
        ${pick(EXTRA_PHONE_NAMES, 'key * 7 + 1')} as name,
        case when ${h('key * 7 + 2', 100)} < 60 then 'permanent'
          when ${h('key * 7 + 2', 100)} < 85 then 'temporary' else 'schedule' end as type,
        access_at + (now() - access_at) * ${fraction('key * 7 + 3')} as created_at,
        ${h('key * 7 + 4', 10)} <> 0 as is_active
      from extra
    ),
    extra_rows as (
      select barrier_id, user_id, key, phone, name, type, created_at, is_active,
        case when type = 'temporary' then created_at end as start_time,
        case when type = 'temporary' then
          case when is_active then now() + make_interval(days => 1 + ${h('key * 7 + 5', 60)}::int)
          else least(now(), created_at + make_interval(days => 1 + ${h('key * 7 + 5', 30)}::int)) end
        end as end_time,
        case when type = 'schedule' then (${scheduleArray})[1 + ${h('key * 7 + 6', SCHEDULES.length)}] end as schedule,
        case when is_active then null
          when type = 'temporary' then least(now(), created_at + make_interval(days => 1 + ${h('key * 7 + 5', 30)}::int))
          else created_at + (now() - created_at) * ${fraction('key * 7 + 8')} end as deleted_at
      from extra_shaped
    ),
    all_rows as (
      select barrier_id, user_id, 0::bigint as key, user_phone as phone, user_name as name, 'primary' as type,
        created_at, true as is_active, null::timestamptz as start_time, null::timestamptz as end_time,
        null::jsonb as schedule, null::timestamptz as deleted_at
      from acc
      union all
      select barrier_id, user_id, key, phone, name, type, created_at, is_active, start_time, end_time, schedule,
        least(deleted_at, now())
      from extra_rows
    )
    insert into phones (barrier_id, user_id, phone, name, type, slot, start_time, end_time, schedule, status,
      is_active, created_at, updated_at, deleted_at)
    select barrier_id, user_id, phone, name, type::phone_type,
      case when is_active then row_number() over (partition by barrier_id, is_active order by created_at, key) end,
      start_time, end_time, schedule,
      (case when not is_active then 'ok'
        when ${h('barrier_id::bigint * 7777 + user_id * 3 + key', 200)} = 0 then 'error'
        when ${h('barrier_id::bigint * 7777 + user_id * 3 + key', 200)} < 3 then 'pending'
        else 'ok' end)::phone_status,
      is_active, created_at, coalesce(deleted_at, created_at), deleted_at
    from all_rows`;

  const phoneJson = (alias: string) =>
    `jsonb_strip_nulls(jsonb_build_object('phone', ${alias}.phone, 'name', ${alias}.name, 'type', ${alias}.type,
      'start_time', ${alias}.start_time, 'end_time', ${alias}.end_time, 'schedule', ${alias}.schedule))`;
  const settingsArray = `array[${SETTINGS.map((setting) => `${literal(JSON.stringify(setting))}::jsonb`).join(',')}]`;
  const actionsSql = `
    insert into actions (barrier_id, phone_id, phone_owner_id, action_type, author, author_user_id, reason,
      old_value, new_value, created_at)
    select p.barrier_id, p.id, p.user_id, 'add_phone'::action_type, w.author::action_author,
      case w.author when 'admin' then b.owner_id when 'user' then p.user_id end,
      case when p.type = 'primary' then 'access_granted' else 'manual' end,
      null, ${phoneJson('p')}, p.created_at
    from phones p
    join barriers b on b.id = p.barrier_id
    cross join lateral (select case when p.type = 'primary' then 'system'
      when ${h('p.id * 5 + 1', 4)} = 0 then 'admin' else 'user' end as author) w
    where p.barrier_id between $1 and $2
    union all
    select p.barrier_id, p.id, p.user_id, 'delete_phone'::action_type,
      (case when p.type = 'temporary' then 'system' else 'user' end)::action_author,
      case when p.type = 'temporary' then null else p.user_id end,
      case when p.type = 'temporary' then 'end_time' else 'manual' end,
      ${phoneJson('p')}, null, p.deleted_at
    from phones p
    where p.barrier_id between $1 and $2 and not p.is_active
    union all
    select p.barrier_id, p.id, p.user_id, 'update_phone'::action_type, 'user'::action_author, p.user_id,
      case when p.type = 'schedule' then 'schedule_update' else 'manual' end,
      jsonb_build_object('name', 'Новый номер'), jsonb_build_object('name', p.name),
      p.created_at + (now() - p.created_at) * ${fraction('p.id * 5 + 2')}
    from phones p
    where p.barrier_id between $1 and $2 and p.is_active and p.type <> 'primary' and ${h('p.id * 5 + 3', 100)} < 10
    union all
    select b.id, null, null, 'barrier_setting'::action_type, 'admin'::action_author, b.owner_id, 'manual',
      null, (${settingsArray})[1 + ${h('b.id * 23 + 1', SETTINGS.length)}],
      b.created_at + (now() - b.created_at) * ${fraction('b.id * 23 + 2')}
    from barriers b
    where b.id between $1 and $2 and ${h('b.id * 23 + 3', 100)} < 30`;

  // What the server believes each device holds: every confirmed active phone, with its time window on the
  // RTU models (temporary phones).
  const deviceSlotsSql = `
    insert into device_slots (barrier_id, slot, number, window_start, window_end, confirmed_at)
    select p.barrier_id, p.slot, p.phone,
      case when b.device_model <> 'Telemetrica' then p.start_time end,
      case when b.device_model <> 'Telemetrica' then p.end_time end,
      p.created_at
    from phones p
    join barriers b on b.id = p.barrier_id
    where p.barrier_id between $1 and $2 and p.is_active and p.status = 'ok' and p.slot is not null`;

  return [
    { table: 'users', sql: usersSql, range: [1, U], params: [adminPasswordHash] },
    { table: 'barriers', sql: barriersSql, range: [1, B], params: [devicePasswordCipher] },
    { table: 'barrier_limits', sql: limitsSql, range: [1, B] },
    { table: 'barrier_access', sql: accessSql, range: [1, B] },
    { table: 'barrier_staff', sql: staffSql, range: [1, B] },
    { table: 'phones', sql: phonesSql, range: [1, B] },
    { table: 'actions', sql: actionsSql, range: [1, B] },
    { table: 'device_slots', sql: deviceSlotsSql, range: [1, B] },
  ];
}

async function main() {
  const parsed = parseArguments(process.argv.slice(2));
  const scale = numberArgument(parsed, 'scale', 1);
  const users = Math.max(400, Math.round(100_000 * scale));
  const sizes: SeedSizes = {
    users,
    admins: Math.max(1, Math.round(users / 100)),
    barriers: Math.max(100, Math.round(100_000 * scale)),
    batch: Math.round(numberArgument(parsed, 'batch', 10_000)),
  };
  const databaseUrl = benchDatabaseUrl();
  await ensureDatabase(databaseUrl);

  const started = performance.now();
  const handle = await openDatabase({ databaseUrl, dataDir: '.', poolSize: 2, preparedStatements: true });
  if (handle.kind !== 'postgres') throw new Error('The seed needs PostgreSQL');
  await applyMigrations(handle);
  await handle.close();

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('connect', (client) => {
    // A seed that is interrupted is simply run again with --reset: no need to wait for each WAL flush.
    client.query("set synchronous_commit = off; set work_mem = '64MB'").catch(() => {});
  });
  try {
    const client = await pool.connect();
    try {
      const nonEmpty = await client.query<{ used: boolean }>(
        'select exists (select 1 from users) or exists (select 1 from barriers) as used',
      );
      if (nonEmpty.rows[0]?.used) {
        if (!parsed.flags.has('reset')) {
          process.stderr.write(
            `The database ${new URL(databaseUrl).pathname.slice(1)} already has data. ` +
              'Run `npm run seed -- --reset` to empty it first (all rows of every table are deleted).\n',
          );
          process.exitCode = 1;
          return;
        }
        const tables = await listApplicationTables(client);
        const resetStarted = performance.now();
        await client.query(
          `truncate ${tables.map((table) => `"${table}"`).join(', ')} restart identity cascade`,
        );
        process.stdout.write(
          `emptied ${tables.length} tables in ${formatSeconds(performance.now() - resetStarted)}\n`,
        );
      }
    } finally {
      client.release();
    }

    process.stdout.write(
      `seeding ${formatCount(sizes.users)} users (${formatCount(sizes.admins)} admins), ` +
        `${formatCount(sizes.barriers)} barriers, in batches of ${formatCount(sizes.batch)} barriers\n`,
    );
    const adminPasswordHash = await hash(SEEDED_ADMIN_PASSWORD);
    const devicePasswordCipher = new Secrets(BENCH_SECRET_KEY).encrypt(SEEDED_DEVICE_PASSWORD);
    for (const step of buildSteps(sizes, adminPasswordHash, devicePasswordCipher)) {
      const batch = step.table === 'users' ? Math.max(sizes.batch, 25_000) : sizes.batch;
      await runStep(pool, step, batch);
    }

    // Ids were given explicitly: move the identity sequences past them.
    for (const table of ['users', 'barriers']) {
      await pool.query(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 1) from ${table}))`,
      );
    }
    const analyzeStarted = performance.now();
    // Fresh statistics for the planner, and a visibility map so that index-only scans need no heap visits.
    await pool.query(
      'vacuum (analyze) users, barriers, barrier_limits, barrier_access, phones, actions, device_slots',
    );
    process.stdout.write(
      `${'vacuum analyze'.padEnd(16)} ${''.padStart(16)} ${formatSeconds(performance.now() - analyzeStarted).padStart(8)}\n`,
    );
    process.stdout.write(`seeded in ${formatSeconds(performance.now() - started)}\n`);
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  process.stderr.write(`seed failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
