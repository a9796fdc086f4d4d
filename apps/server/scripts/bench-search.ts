/**
 * `npm run bench:search [-- --runs 50]`: times the barrier address search itself, with nothing kept
 * (the service keeps an answer 5 s; this is the cost of computing one), on the seeded database
 * (`npm run seed`, DATABASE_URL as there). For each search: the matches, and the median and p95 of
 * `searchPublicBarrierIds` (the first 1,000 ids in list order and the total: what a new search costs) and of
 * the user's own list with the same search (`listOwnBarriers`, one page and its total).
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.ts';
import { searchPublicBarrierIds } from '../src/modules/barriers/public-repository.ts';
import { listOwnBarriers } from '../src/modules/barriers/repository.ts';
import { assertLoopback, benchDatabaseUrl } from './bench-lib.ts';

const SEARCHES = [
  'Ленина',
  'ленина 12',
  'ул. Ленина, д.12',
  '12 ленина москва',
  'лен',
  'Москва',
  'г москва ул',
  'несуществующая',
];

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

async function time(runs: number, call: () => Promise<unknown>) {
  await call();
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return `${percentile(times, 0.5).toFixed(2)} / ${percentile(times, 0.95).toFixed(2)}`;
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' } } });
  const runs = Number(values.runs);
  const url = benchDatabaseUrl();
  assertLoopback(url);
  const handle = await openDatabase({ databaseUrl: url, dataDir: '', poolSize: 1, preparedStatements: true });
  if (handle.kind !== 'postgres') throw new Error('PostgreSQL only');
  const barriers = await handle.pool.query<{ count: string }>('select count(*) from barriers');
  const viewer = await handle.pool.query<{ user_id: number }>(
    'select user_id from barrier_access group by user_id order by count(*) desc limit 1',
  );
  const viewerId = viewer.rows[0]?.user_id ?? 1;
  console.log(`barriers: ${barriers.rows[0]?.count}; own list of user ${viewerId}`);
  console.log('| search | matches | public search, ms (median / p95) | own list page, ms (median / p95) |');
  console.log('|---|---:|---:|---:|');
  for (const address of SEARCHES) {
    const { total } = await searchPublicBarrierIds(handle.db, address, 'address', 1000);
    const publicTime = await time(runs, () => searchPublicBarrierIds(handle.db, address, 'address', 1000));
    const ownTime = await time(runs, () =>
      listOwnBarriers(handle.db, viewerId, { page: 1, page_size: 5, address, ordering: 'address' }),
    );
    console.log(`| ${address} | ${total} | ${publicTime} | ${ownTime} |`);
  }
  await handle.close();
}

await main();
