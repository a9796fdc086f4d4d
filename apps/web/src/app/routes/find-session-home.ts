import type { profileSchema } from '@propusk/contracts/users';
import { api } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { readStored } from '../../lib/storage';

/**
 * Where a stored session belongs: the administrator's area for an administrator (as /smsadmin sends him after
 * logging in); for a resident, /start (user/start.tsx: the gate one tap away — his barrier, his barrier list,
 * a waiting invitation, else his profile). Null without a usable session: no stored token, or the profile call
 * failed (an expired session that the refresh could not renew clears the stored tokens in the fetch wrapper; a
 * network failure leaves the login screen usable). No code is asked for.
 */
export async function findSessionHome(): Promise<string | null> {
  if (!readStored('access_token') && !readStored('refresh_token')) return null;
  try {
    const profile = await api.get<typeof profileSchema>('/api/users/me/');
    // A resident starts on /start: his barrier, his list, his invitation or his profile (issue 32 item 4).
    if (profile.role !== 'admin') return paths.start;
    // A password that no longer meets the rule is replaced first (issue 29 part 9).
    return profile.password_change_required ? paths.changePassword : paths.admin;
  } catch {
    return null;
  }
}
