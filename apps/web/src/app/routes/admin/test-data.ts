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
};

export const limits = {
  user_phone_limit: 3,
  user_temp_phone_limit: null,
  global_temp_phone_limit: null,
  user_schedule_phone_limit: null,
  global_schedule_phone_limit: null,
  schedule_interval_limit: 30,
  sms_weekly_limit: null,
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
