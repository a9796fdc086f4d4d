import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { barriers, users } from '../src/db/schema.ts';
import { listPublicBarriers, PublicBarrierSearch } from '../src/modules/barriers/public-search.ts';
import {
  addPhone,
  createBarrier,
  createOwnerWithBarrier,
  createUserWithAccess,
  projectedDevice,
  queuedCommands,
} from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('barriers', () => {
  let owner: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    owner = await createAdmin(t, { fullName: 'Иван Петров' });
  });

  const validBody = () => ({
    address: 'г. Москва, ул. Ленина, д. 1',
    device_phone: nextPhone(),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    additional_info: 'Въезд со двора',
    is_public: true,
  });
  const create = (payload: Record<string, unknown>, token = owner.token) =>
    t.request({ method: 'POST', url: '/api/admin/barriers/', token, payload });

  describe('creation', () => {
    it('gives the owner access and his primary phone, queued for the device; never returns the password', async () => {
      const body = validBody();
      const response = await create(body);
      expect(response.statusCode).toBe(201);
      const barrier = response.json();
      expect(barrier).toMatchObject({
        address: body.address,
        device_phone: body.device_phone,
        device_model: 'RTU5025',
        device_phones_amount: 50,
        additional_info: 'Въезд со двора',
        is_public: true,
        owner: { id: owner.id, full_name: 'Иван Петров', phone: owner.phone },
      });
      expect(barrier).not.toHaveProperty('device_password');
      expect(response.body).not.toContain('1234');

      const access = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/check_access/`,
        token: owner.token,
      });
      expect(access.json()).toEqual({ has_access: true });
      const phones = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/phones/my/`,
        token: owner.token,
      });
      expect(phones.json().phones).toEqual([
        expect.objectContaining({ phone: owner.phone, type: 'primary', is_active: true, status: 'pending' }),
      ]);
      expect(await projectedDevice(t, barrier.id)).toEqual(new Map([[1, owner.phone]]));
      expect((await queuedCommands(t, barrier.id)).map((command) => command.kind)).toEqual(['add']);

      // The password is stored encrypted, not in clear.
      const [row] = await t.deps.db.select().from(barriers).where(eq(barriers.id, barrier.id));
      expect(row?.devicePasswordEncrypted).toBeTruthy();
      expect(row?.devicePasswordEncrypted).not.toContain('1234');
      expect(t.deps.secrets.decrypt(row?.devicePasswordEncrypted ?? '')).toBe('1234');
    });

    it.each([
      ['address', { address: '' }],
      ['address', { address: '   ' }],
      ['address', { address: 'a'.repeat(511) }],
      ['address', { address: 5 }],
      ['device_phone', { device_phone: '+7' }],
      ['device_phone', { device_phone: '89991234567' }],
      ['device_phone', { device_phone: '+7999123456a' }],
      ['device_phones_amount', { device_phones_amount: 0 }],
      ['device_phones_amount', { device_phones_amount: 10001 }],
      ['device_phones_amount', { device_phones_amount: 1.5 }],
      ['device_phones_amount', { device_phones_amount: '10' }],
      ['device_model', { device_model: 'Nokia' }],
      ['device_password', { device_password: '123' }],
      ['device_password', { device_password: '12345' }],
      ['device_password', { device_password: 'abcd' }],
      ['device_password', { device_password: null }],
      ['is_public', { is_public: 'yes' }],
    ])('answers 400 with a message for %s (%j)', async (field, override) => {
      const response = await create({ ...validBody(), ...override });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body[field]).toEqual([expect.any(String)]);
    });

    it('answers 400 for missing required fields, each named', async () => {
      const response = await create({});
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json())).toEqual(
        expect.arrayContaining(['address', 'device_phone', 'device_model', 'device_phones_amount']),
      );
    });

    it('refuses more phones than the model has slots, and accepts a model without a password', async () => {
      const tooMany = await create({ ...validBody(), device_phones_amount: 1000 });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().device_phones_amount[0]).toContain('999');
      const rtu5024 = await create({ ...validBody(), device_model: 'RTU5024', device_phones_amount: 201 });
      expect(rtu5024.statusCode).toBe(400);

      // Telemetrica holds a few numbers (issue 30): 1,000 is refused, its capacity accepted.
      const tooManyForTelemetrica = await create({
        ...validBody(),
        device_model: 'Telemetrica',
        device_password: undefined,
        device_phones_amount: 1000,
      });
      expect(tooManyForTelemetrica.statusCode).toBe(400);
      const telemetrica = await create({
        ...validBody(),
        device_model: 'Telemetrica',
        device_password: undefined,
        device_phones_amount: 4,
      });
      expect(telemetrica.statusCode).toBe(201);
      // A model the engine cannot confirm yet (no documented reply or read-back) is refused.
      const eldes = await create({ ...validBody(), device_model: 'ESIM120', device_phones_amount: 10 });
      expect(eldes.statusCode).toBe(400);
      const tell = await create({
        ...validBody(),
        device_model: 'TELL-GC20',
        device_password: '1111',
        device_phones_amount: 20,
      });
      expect(tell.statusCode, tell.body).toBe(201);
      const [row] = await t.deps.db.select().from(barriers).where(eq(barriers.id, telemetrica.json().id));
      expect(row?.devicePasswordEncrypted).toBeNull();
    });

    it('refuses a device phone a live barrier’s unit confirmed (409), and frees it when that barrier is deleted', async () => {
      const body = validBody();
      const first = await create(body);
      expect(first.statusCode).toBe(201);
      // Unconfirmed, the number is nobody's yet (issue 40, decision 0030): a second barrier may name it.
      const unconfirmed = await create({ ...validBody(), device_phone: body.device_phone });
      expect(unconfirmed.statusCode, unconfirmed.body).toBe(201);
      // The first one's unit answered a command (device-phone-claims.test.ts does it through the engine).
      await t.deps.db
        .update(barriers)
        .set({ deviceConfirmedAt: t.clock.now() })
        .where(eq(barriers.id, first.json().id));
      const again = await create({ ...validBody(), device_phone: body.device_phone });
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe('A barrier with this device phone already exists.');
      const deleted = await t.request({
        method: 'DELETE',
        url: `/api/admin/barriers/${first.json().id}/`,
        token: owner.token,
      });
      expect(deleted.statusCode).toBe(204);
      expect((await create({ ...validBody(), device_phone: body.device_phone })).statusCode).toBe(201);
    });

    it('ignores unknown fields, and defaults is_public to true', async () => {
      const { is_public: _ignored, ...body } = validBody();
      const response = await create({ ...body, owner_id: 999, device_password_encrypted: 'x' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ is_public: true, owner: { id: owner.id } });
    });

    it('is for administrators only', async () => {
      const user = await createUser(t);
      expect((await create(validBody(), user.token)).statusCode).toBe(403);
      const anonymous = await t.request({
        method: 'POST',
        url: '/api/admin/barriers/',
        payload: validBody(),
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('answers a malformed JSON body with 400, not 500', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/admin/barriers/',
        token: owner.token,
        headers: { 'content-type': 'application/json' },
        payload: '{"address": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty('detail');
    });
  });

  describe('public list and search', () => {
    let searchOwner: TestUser;
    let viewer: TestUser;
    beforeAll(async () => {
      searchOwner = await createAdmin(t, { fullName: 'Поиск' });
      viewer = await createUser(t);
      for (const address of [
        'Поисковая, ул. Садовая, 5',
        'ПОИСКОВАЯ, ул. Берёзовая, 7',
        'Поисковая, Abc Street 1',
      ]) {
        await createBarrier(t, searchOwner, { address });
      }
      // `%` and `_` are outside the clean-text rule of new addresses (issue 29 part 6), but stored ones from
      // before it may hold them: the search must still take them literally.
      const wildcards = await createBarrier(t, searchOwner, { address: 'Поисковая, скидка' });
      await t.deps.db
        .update(barriers)
        .set({ address: 'Поисковая, 100% скидка_тест' })
        .where(eq(barriers.id, wildcards.id));
      await createBarrier(t, searchOwner, { address: 'Поисковая, закрытый', is_public: false });
    });
    const list = (query: string, user = viewer) =>
      t.request({ method: 'GET', url: `/api/barriers/?${query}`, token: user.token });

    it('finds by a case-insensitive word, Cyrillic included, public barriers only', async () => {
      const response = await list(`address=${encodeURIComponent('поисковая')}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.total_count).toBe(4);
      expect(body.barriers.map((barrier: { address: string }) => barrier.address)).not.toContain(
        'Поисковая, закрытый',
      );
      const mixed = await list(`address=${encodeURIComponent('САДОВАЯ')}`);
      expect(mixed.json().barriers.map((barrier: { address: string }) => barrier.address)).toEqual([
        'Поисковая, ул. Садовая, 5',
      ]);
      const latin = await list('address=abc');
      expect(latin.json().total_count).toBe(1);
    });

    it("shows this process's own changes to the public list at once, search and total included", async () => {
      const query = `address=${encodeURIComponent('Кэшируемая')}&ordering=address`;
      const addresses = async () => {
        const body = (await list(query)).json();
        return {
          total: body.total_count,
          addresses: body.barriers.map((b: { address: string }) => b.address),
        };
      };
      const totalBefore = (await list('page_size=1')).json().total_count;
      expect(await addresses()).toEqual({ total: 0, addresses: [] });

      const first = await createBarrier(t, searchOwner, { address: 'кэшируемая, 2' });
      const second = await createBarrier(t, searchOwner, { address: 'Кэшируемая, 1' });
      expect(await addresses()).toEqual({ total: 2, addresses: ['Кэшируемая, 1', 'кэшируемая, 2'] });
      expect((await list('page_size=1')).json().total_count).toBe(totalBefore + 2);

      const hidden = await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${first.id}/`,
        token: searchOwner.token,
        payload: { is_public: false },
      });
      expect(hidden.statusCode).toBe(200);
      expect(await addresses()).toEqual({ total: 1, addresses: ['Кэшируемая, 1'] });

      const removed = await t.request({
        method: 'DELETE',
        url: `/api/admin/barriers/${second.id}/`,
        token: searchOwner.token,
      });
      expect(removed.statusCode).toBe(204);
      expect(await addresses()).toEqual({ total: 0, addresses: [] });
      expect((await list('page_size=1')).json().total_count).toBe(totalBefore);
    });

    it('pages past the matches it keeps of a search from the database, in the same order', async () => {
      // A service that keeps the first 2 matches of a search: pages 1–2 of size 1 come from the kept ids,
      // later pages from the database; together they must be exactly the list of one big page.
      const search = new PublicBarrierSearch(t.deps, { searchIdsKept: 2 });
      const user = { id: viewer.id, sessionId: 'test', role: 'user' as const, phone: viewer.phone };
      const profile = {
        ...user,
        fullName: null,
        phonePrivacy: 'public' as const,
        passwordChangeRequired: false,
        consentedToCurrentPolicy: true,
      };
      for (const ordering of ['address', '-address', undefined] as const) {
        const whole = await listPublicBarriers(t.deps, search, profile, {
          page: 1,
          page_size: 100,
          address: 'поисковая',
          ...(ordering ? { ordering } : {}),
        });
        expect(whole.total_count).toBe(4);
        expect(whole.barriers).toHaveLength(4);
        const pages = [];
        for (let pageNumber = 1; pageNumber <= 5; pageNumber += 1) {
          const onePage = await listPublicBarriers(t.deps, search, profile, {
            page: pageNumber,
            page_size: 1,
            address: 'поисковая',
            ...(ordering ? { ordering } : {}),
          });
          expect(onePage.total_count).toBe(4);
          pages.push(...onePage.barriers);
        }
        expect(pages).toEqual(whole.barriers);
      }
    });

    it('treats %, _ and other punctuation in the search as word separators, never as patterns', async () => {
      expect((await list(`address=${encodeURIComponent('100%')}`)).json().total_count).toBe(1);
      expect((await list(`address=${encodeURIComponent('скидка_тест')}`)).json().total_count).toBe(1);
      expect((await list(`address=${encodeURIComponent('%')}`)).json().total_count).toBe(0);
      expect((await list(`address=${encodeURIComponent('а_с')}`)).json().total_count).toBe(0);
    });

    it('orders by address both ways and pages', async () => {
      const query = `address=${encodeURIComponent('Поисковая')}`;
      const ascending = (await list(`${query}&ordering=address`)).json();
      const descending = (await list(`${query}&ordering=-address`)).json();
      const addresses = ascending.barriers.map((barrier: { address: string }) => barrier.address);
      expect(descending.barriers.map((barrier: { address: string }) => barrier.address)).toEqual(
        [...addresses].reverse(),
      );
      const pageTwo = (await list(`${query}&ordering=address&page=2&page_size=3`)).json();
      expect(pageTwo).toMatchObject({ total_count: 4, current_page: 2, page_size: 3 });
      expect(pageTwo.barriers.map((barrier: { address: string }) => barrier.address)).toEqual([addresses[3]]);
      const beyond = (await list(`${query}&page=9&page_size=5`)).json();
      expect(beyond).toMatchObject({ barriers: [], total_count: 4 });
    });

    it('rejects an unknown ordering and bad paging with 400', async () => {
      expect((await list('ordering=owner')).statusCode).toBe(400);
      expect((await list('page=0')).statusCode).toBe(400);
      expect((await list('page_size=101')).statusCode).toBe(400);
      expect((await list('page=abc')).statusCode).toBe(400);
      expect((await list('page_size=100')).statusCode).toBe(200);
    });

    it('defaults to 10 per page', async () => {
      expect((await list('')).json().page_size).toBe(10);
    });

    it('needs a login', async () => {
      expect((await t.request({ method: 'GET', url: '/api/barriers/' })).statusCode).toBe(401);
    });
  });

  describe('card and privacy', () => {
    async function ownerWithPrivacy(privacy: 'public' | 'protected' | 'private', isPublic = true) {
      const admin = await createAdmin(t, { fullName: `Владелец ${privacy}` });
      await t.deps.db.update(users).set({ phonePrivacy: privacy }).where(eq(users.id, admin.id));
      const barrier = await createBarrier(t, admin, { is_public: isPublic });
      return { admin, barrier };
    }
    const card = (barrierId: number, user: TestUser) =>
      t.request({ method: 'GET', url: `/api/barriers/${barrierId}/`, token: user.token });

    it('shows a public owner phone to everyone, the device phone only with access', async () => {
      const { admin, barrier } = await ownerWithPrivacy('public');
      const stranger = await createUser(t);
      const response = await card(barrier.id, stranger);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: barrier.id,
        owner: { full_name: 'Владелец public', phone: admin.phone },
        device_phone: null,
        has_access: false,
        is_owner: false,
        block_reason: null,
      });
      expect(response.body).not.toContain(barrier.device_phone);
      const member = await createUserWithAccess(t, barrier);
      expect((await card(barrier.id, member)).json()).toMatchObject({
        device_phone: barrier.device_phone,
        has_access: true,
      });
      expect((await card(barrier.id, admin)).json()).toMatchObject({
        is_owner: true,
        device_phone: barrier.device_phone,
      });
    });

    it('shows a protected owner phone only to users with access', async () => {
      const { admin, barrier } = await ownerWithPrivacy('protected');
      const stranger = await createUser(t);
      expect((await card(barrier.id, stranger)).json().owner.phone).toBeNull();
      const list = await t.request({
        method: 'GET',
        url: `/api/barriers/?address=${encodeURIComponent(barrier.address)}`,
        token: stranger.token,
      });
      expect(list.json().barriers[0].owner.phone).toBeNull();
      expect(list.body).not.toContain(admin.phone);
      const member = await createUserWithAccess(t, barrier);
      expect((await card(barrier.id, member)).json().owner.phone).toBe(admin.phone);
    });

    it('shows a private owner phone to nobody but himself', async () => {
      const { admin, barrier } = await ownerWithPrivacy('private');
      const member = await createUserWithAccess(t, barrier);
      const response = await card(barrier.id, member);
      expect(response.json().owner.phone).toBeNull();
      expect(response.body).not.toContain(admin.phone);
      expect((await card(barrier.id, admin)).json().owner.phone).toBe(admin.phone);
    });

    it('hides a private barrier from users without access (404), also in check_access', async () => {
      const { barrier } = await ownerWithPrivacy('public', false);
      const stranger = await createUser(t);
      expect((await card(barrier.id, stranger)).statusCode).toBe(404);
      const check = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/check_access/`,
        token: stranger.token,
      });
      expect(check.statusCode).toBe(404);
      const member = await createUserWithAccess(t, barrier);
      expect((await card(barrier.id, member)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown barrier and 400 for a malformed id', async () => {
      const user = await createUser(t);
      expect((await card(999999, user)).statusCode).toBe(404);
      const malformed = await t.request({ method: 'GET', url: '/api/barriers/abc/', token: user.token });
      expect(malformed.statusCode).toBe(400);
    });

    it('answers check_access false on a public barrier without access', async () => {
      const { barrier } = await createOwnerWithBarrier(t);
      const user = await createUser(t);
      const check = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/check_access/`,
        token: user.token,
      });
      expect(check.json()).toEqual({ has_access: false });
    });
  });

  describe('my barriers', () => {
    it('lists the barriers the user has access to, with paging and search', async () => {
      const { barrier } = await createOwnerWithBarrier(t, { address: 'Моя, ул. Первая' });
      const { barrier: other } = await createOwnerWithBarrier(t, { address: 'Моя, ул. Вторая' });
      await createOwnerWithBarrier(t, { address: 'Чужая' });
      const user = await createUserWithAccess(t, barrier);
      const { grantAccess } = await import('./domain-factories.ts');
      await grantAccess(t, other, user);
      const response = await t.request({
        method: 'GET',
        url: '/api/barriers/my/?ordering=-address',
        token: user.token,
      });
      expect(response.json()).toMatchObject({ total_count: 2, current_page: 1 });
      expect(response.json().barriers.map((item: { address: string }) => item.address)).toEqual([
        'Моя, ул. Первая',
        'Моя, ул. Вторая',
      ]);
      expect(response.json().barriers.every((item: { has_access: boolean }) => item.has_access)).toBe(true);
      // Each row carries the gate's number to call (issue 32 item 4: «Позвонить» from the list).
      expect(response.json().barriers.map((item: { device_phone: string }) => item.device_phone)).toEqual([
        barrier.device_phone,
        other.device_phone,
      ]);
      // The public search never tells a stranger a device's number.
      const stranger = await createUser(t);
      const publicList = await t.request({ method: 'GET', url: '/api/barriers/', token: stranger.token });
      expect(publicList.statusCode).toBe(200);
      expect(publicList.json().barriers.length).toBeGreaterThan(0);
      expect(
        publicList
          .json()
          .barriers.every((item: { device_phone: string | null }) => item.device_phone === null),
      ).toBe(true);
      const searched = await t.request({
        method: 'GET',
        url: `/api/barriers/my/?address=${encodeURIComponent('втор')}`,
        token: user.token,
      });
      expect(searched.json().total_count).toBe(1);
    });
  });

  describe('limits (user side)', () => {
    it('shows limits to users with access only', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t);
      await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${barrier.id}/limits/`,
        token: admin.token,
        payload: { user_phone_limit: 3 },
      });
      const member = await createUserWithAccess(t, barrier);
      const response = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/limits/`,
        token: member.token,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user_phone_limit: 3,
        user_temp_phone_limit: null,
        global_temp_phone_limit: null,
        user_schedule_phone_limit: null,
        global_schedule_phone_limit: null,
        schedule_interval_limit: null,
        sms_weekly_limit: null,
        sms_resident_share: null,
        sms_owner_reserve: null,
        sms_budget: null,
      });
      const stranger = await createUser(t);
      const refused = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/limits/`,
        token: stranger.token,
      });
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('leave', () => {
    it('removes access and every phone of the user, and takes them off the device', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      const extra = await addPhone(t, member, barrier.id);
      expect(extra.statusCode).toBe(201);
      const before = await projectedDevice(t, barrier.id);
      expect([...before.values()]).toEqual(expect.arrayContaining([member.phone, extra.json().phone]));

      const response = await t.request({
        method: 'DELETE',
        url: `/api/barriers/${barrier.id}/leave/`,
        token: member.token,
      });
      expect(response.statusCode).toBe(204);
      const after = await projectedDevice(t, barrier.id);
      expect([...after.values()]).toEqual([admin.phone]);
      const check = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/check_access/`,
        token: member.token,
      });
      expect(check.json()).toEqual({ has_access: false });
      const phone = await t.request({
        method: 'GET',
        url: `/api/phones/${extra.json().id}/`,
        token: member.token,
      });
      expect(phone.json()).toMatchObject({ is_active: false });
      const again = await t.request({
        method: 'DELETE',
        url: `/api/barriers/${barrier.id}/leave/`,
        token: member.token,
      });
      expect(again.statusCode).toBe(403);
    });

    it('does not let the owner leave his own barrier', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t);
      const response = await t.request({
        method: 'DELETE',
        url: `/api/barriers/${barrier.id}/leave/`,
        token: admin.token,
      });
      expect(response.statusCode).toBe(409);
    });

    it('takes numbers off even when the weekly SMS limit is spent', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${barrier.id}/limits/`,
        token: admin.token,
        payload: { sms_weekly_limit: 0 },
      });
      const response = await t.request({
        method: 'DELETE',
        url: `/api/barriers/${barrier.id}/leave/`,
        token: member.token,
      });
      expect(response.statusCode).toBe(204);
      expect([...(await projectedDevice(t, barrier.id)).values()]).not.toContain(member.phone);
    });
  });

  describe('administration', () => {
    it('lists, reads and patches the administrator’s own barriers', async () => {
      const admin = await createAdmin(t);
      const first = await createBarrier(t, admin, { address: 'Б-адрес' });
      await createBarrier(t, admin, { address: 'А-адрес' });
      await createOwnerWithBarrier(t);
      const list = await t.request({
        method: 'GET',
        url: '/api/admin/barriers/my/?ordering=address&page_size=5',
        token: admin.token,
      });
      expect(list.json()).toMatchObject({ total_count: 2, page_size: 5 });
      expect(list.json().barriers.map((item: { address: string }) => item.address)).toEqual([
        'А-адрес',
        'Б-адрес',
      ]);

      const read = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${first.id}/`,
        token: admin.token,
      });
      expect(read.json()).toMatchObject({ id: first.id, device_phone: first.device_phone });
      expect(read.json()).not.toHaveProperty('device_password');

      const patched = await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${first.id}/`,
        token: admin.token,
        payload: { additional_info: 'Код 12', is_public: false, device_password: '4321' },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ additional_info: 'Код 12', is_public: false });
      expect(patched.body).not.toContain('4321');
      const [row] = await t.deps.db.select().from(barriers).where(eq(barriers.id, first.id));
      expect(t.deps.secrets.decrypt(row?.devicePasswordEncrypted ?? '')).toBe('4321');
      // Correcting the stored password sends nothing to the device.
      expect((await queuedCommands(t, first.id)).map((command) => command.kind)).toEqual(['add']);
    });

    it('validates the patch', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t);
      const patch = (payload: unknown) =>
        t.request({
          method: 'PATCH',
          url: `/api/admin/barriers/${barrier.id}/`,
          token: admin.token,
          payload: payload as object,
        });
      expect((await patch({ device_password: '12' })).json()).toHaveProperty('device_password');
      expect((await patch({ is_public: 'no' })).statusCode).toBe(400);
      expect((await patch({})).statusCode).toBe(400);
      expect((await patch({ additional_info: 'x'.repeat(2001) })).statusCode).toBe(400);
    });

    it('answers 404 for another administrator’s barrier, on every call', async () => {
      const { barrier } = await createOwnerWithBarrier(t);
      const other = await createAdmin(t);
      for (const [method, url, payload] of [
        ['GET', `/api/admin/barriers/${barrier.id}/`, undefined],
        ['PATCH', `/api/admin/barriers/${barrier.id}/`, { is_public: false }],
        ['DELETE', `/api/admin/barriers/${barrier.id}/`, undefined],
        ['GET', `/api/admin/barriers/${barrier.id}/limits/`, undefined],
        ['PATCH', `/api/admin/barriers/${barrier.id}/limits/`, { user_phone_limit: 1 }],
      ] as const) {
        const response = await t.request({
          method,
          url,
          token: other.token,
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    });

    it('deletes a barrier: every number leaves the device, the barrier leaves every list', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t, { address: 'Удаляемый' });
      const member = await createUserWithAccess(t, barrier);
      await addPhone(t, member, barrier.id);
      const pending = await createUser(t);
      const asked = await t.request({
        method: 'POST',
        url: '/api/access_requests/',
        token: pending.token,
        payload: { user: pending.id, barrier: barrier.id },
      });
      expect(asked.statusCode).toBe(201);

      const response = await t.request({
        method: 'DELETE',
        url: `/api/admin/barriers/${barrier.id}/`,
        token: admin.token,
      });
      expect(response.statusCode).toBe(204);
      expect((await projectedDevice(t, barrier.id)).size).toBe(0);
      expect(
        (await t.request({ method: 'GET', url: `/api/admin/barriers/${barrier.id}/`, token: admin.token }))
          .statusCode,
      ).toBe(404);
      expect(
        (await t.request({ method: 'GET', url: `/api/barriers/${barrier.id}/`, token: member.token }))
          .statusCode,
      ).toBe(404);
      const mine = await t.request({ method: 'GET', url: '/api/barriers/my/', token: member.token });
      expect(mine.json().total_count).toBe(0);
      const requests = await t.request({
        method: 'GET',
        url: '/api/access_requests/my/',
        token: pending.token,
      });
      expect(requests.json().access_requests[0]).toMatchObject({ status: 'cancelled' });
    });
  });

  describe('limits (administrator)', () => {
    it('sets whole numbers ≥ 0 or null, field by field', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 20 });
      const url = `/api/admin/barriers/${barrier.id}/limits/`;
      const patched = await t.request({
        method: 'PATCH',
        url,
        token: admin.token,
        payload: { user_phone_limit: 5, sms_weekly_limit: 100, schedule_interval_limit: 30 },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({
        user_phone_limit: 5,
        sms_weekly_limit: 100,
        schedule_interval_limit: 30,
      });
      const cleared = await t.request({
        method: 'PATCH',
        url,
        token: admin.token,
        payload: { user_phone_limit: null },
      });
      expect(cleared.json()).toMatchObject({ user_phone_limit: null, sms_weekly_limit: 100 });
      const read = await t.request({ method: 'GET', url, token: admin.token });
      expect(read.json()).toEqual(cleared.json());
    });

    it.each([
      [{ user_phone_limit: -1 }, 'user_phone_limit'],
      [{ user_temp_phone_limit: 1.5 }, 'user_temp_phone_limit'],
      [{ global_temp_phone_limit: '3' }, 'global_temp_phone_limit'],
      [{ user_schedule_phone_limit: 21 }, 'user_schedule_phone_limit'],
      [{ global_schedule_phone_limit: 21 }, 'global_schedule_phone_limit'],
      [{ user_phone_limit: 21 }, 'user_phone_limit'],
      [{ schedule_interval_limit: 1441 }, 'schedule_interval_limit'],
      [{ sms_weekly_limit: -5 }, 'sms_weekly_limit'],
      [{}, 'non_field_errors'],
    ])('answers 400 for %j', async (payload, field) => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 20 });
      const response = await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${barrier.id}/limits/`,
        token: admin.token,
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty(field);
    });

    it('allows phone-count limits up to the device’s slots', async () => {
      const { owner: admin, barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 20 });
      const response = await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${barrier.id}/limits/`,
        token: admin.token,
        payload: { user_phone_limit: 20, global_temp_phone_limit: 0, sms_weekly_limit: 100000 },
      });
      expect(response.statusCode).toBe(200);
    });
  });
});
