/** Sample API answers shared by the administrator-area component tests. */
export const adminProfile = {
  id: 1,
  full_name: 'Анна Админова',
  phone: '+79001112233',
  phone_privacy: 'public',
  role: 'admin',
  is_active: true,
};

export const barrier = {
  id: 5,
  address: 'г Москва, ул Тверская, д 7',
  owner: { id: 1, full_name: 'Анна Админова', phone: '+79001112233' },
  device_phone: '+79005550001',
  device_model: 'RTU5025',
  device_phones_amount: 100,
  additional_info: 'Въезд со двора',
  is_public: true,
  created_at: '2026-01-10T10:00:00Z',
  device_state: 'ok',
  device_power: null as 'lost' | 'restored' | null,
  device_power_since: null as string | null,
  device_gateway_number: null as string | null,
  my_role: 'owner',
  dangers: [] as string[],
  emergency_hold_id: null as number | null,
};

/** GET /api/admin/barriers/5/device-health/ of a device in step with the database. */
export const deviceHealth = {
  state: 'ok',
  last_reply_at: '2026-01-11T10:00:00Z',
  open_commands: 0,
  oldest_open_at: null,
  oldest_open_age_seconds: null,
  consecutive_failures: 0,
  unrecognised_count: 0,
};

export const limits = {
  user_phone_limit: 3,
  user_temp_phone_limit: null,
  global_temp_phone_limit: null,
  user_schedule_phone_limit: null,
  global_schedule_phone_limit: null,
  schedule_interval_limit: 30,
  sms_weekly_limit: null,
  sms_resident_share: null,
  sms_owner_reserve: null,
  sms_budget: null,
};

export function page<K extends string>(
  key: K,
  items: unknown[],
  total = items.length,
  current = 1,
  size = 10,
) {
  return { [key]: items, total_count: total, current_page: current, page_size: size } as Record<
    K,
    unknown[]
  > & {
    total_count: number;
  };
}

export const barrierUser = {
  id: 21,
  full_name: 'Пётр Жильцов',
  phone: '+79002223344',
  created_at: '2026-01-11T10:00:00+03:00',
  phones_count: 2,
  role: 'user',
  is_active: true,
  phone_privacy: 'public',
};

export const adminUser = {
  id: 21,
  full_name: 'Пётр Жильцов',
  phone: '+79002223344',
  role: 'user',
  is_active: true,
  phone_privacy: 'public',
  block_reason: null,
};

const phoneBase = {
  is_active: true,
  barrier: 5,
  user: 21,
  start_time: null,
  end_time: null,
  schedule: null,
  created_at: '2026-01-11T10:00:00Z',
  updated_at: '2026-01-11T10:00:00Z',
};

export const primaryPhone = {
  ...phoneBase,
  id: 31,
  name: 'Основной',
  phone: '+79002223344',
  type: 'primary',
  status: 'ok',
};

export const failedPhone = {
  ...phoneBase,
  id: 32,
  name: 'Жена',
  phone: '+79003334455',
  type: 'permanent',
  status: 'error',
};

export const temporaryPhone = {
  ...phoneBase,
  id: 33,
  name: 'Гость',
  phone: '+79004445566',
  type: 'temporary',
  status: 'pending',
  start_time: '2030-05-01T09:00:00+03:00',
  end_time: '2030-05-01T18:00:00+03:00',
};

export function accessRequest(id: number, status = 'pending') {
  return {
    id,
    user: 21,
    barrier: 5,
    user_full_name: 'Пётр Жильцов',
    user_phone: '+79002223344',
    barrier_address: `ул Ленина, д ${id}`,
    status,
    initiator: 'user',
    type: 'incoming',
    hidden_for_user: false,
    created_at: '2026-01-11T10:00:00Z',
    updated_at: '2026-01-11T10:00:00Z',
  };
}

/** A guest pass as the lists answer it: for resident 21 (Пётр Жильцов), made by administrator 1. */
export const guestPass = (id: number, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  barrier: 5,
  user: 21,
  user_full_name: 'Пётр Жильцов',
  user_phone: '+7 *** ***-45-67',
  created_by: 1,
  created_by_full_name: 'Ольга Админова',
  created_by_phone: '+7 *** ***-00-01',
  note: '',
  start: '2026-11-21T12:00:00+03:00',
  end: '2026-11-21T15:00:00+03:00',
  expires_at: '2026-11-21T15:00:00+03:00',
  status,
  used_phone: null,
  phone: null,
  used_at: null,
  revoked_at: null,
  created_at: '2026-11-21T11:00:00+03:00',
  ...extra,
});
