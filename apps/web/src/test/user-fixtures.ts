/** Sample API answers shared by the user-area and recovery component tests. */
export const userProfile = {
  id: 7,
  full_name: 'Иван Петров',
  phone: '+79001234567',
  phone_privacy: 'public',
  role: 'user',
  is_active: true,
};

/** A `POST /api/auth/codes/` success answer carrying `token`. */
export const codeSent = (token: string): [number, Record<string, unknown>] => [
  201,
  { verification_token: token, detail: 'Verification code sent.', retry_after: 60 },
];

export const codeVerified = { message: 'Code verified successfully.' };

export const userBarrier = {
  id: 8,
  address: 'г Москва, ул Арбат, д 10',
  owner: { id: 1, full_name: 'Анна Админова', phone: '+79001112233' },
  device_phone: '+79005550008',
  device_model: 'RTU5025',
  device_phones_amount: 100,
  additional_info: 'Въезд с переулка',
  is_public: true,
  created_at: '2026-01-10T10:00:00Z',
  block_reason: null as string | null,
  dangers: [] as string[],
};

const phoneBase = {
  is_active: true,
  barrier: 8,
  user: 7,
  start_time: null,
  end_time: null,
  schedule: null,
  created_at: '2026-01-11T10:00:00Z',
  updated_at: '2026-01-11T10:00:00Z',
};

export const ownPrimaryPhone = {
  ...phoneBase,
  id: 51,
  name: 'Основной',
  phone: '+79001234567',
  type: 'primary',
  status: 'ok',
};

export const ownExtraPhone = {
  ...phoneBase,
  id: 52,
  name: 'Жена',
  phone: '+79003334455',
  type: 'permanent',
  status: 'error',
};
