import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../lib/api-client';
import { paths } from '../lib/paths';
import { clearSession, readStored } from '../lib/storage';

/**
 * Logging out: the server revokes the session (`POST /api/auth/logout/ {refresh}`), then the stored access
 * token, refresh token and phone are cleared and the user lands on /login, whatever the server answered.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const refresh = readStored('refresh_token');
    if (refresh) await api.post('/api/auth/logout/', { refresh }, { auth: false }).catch(() => undefined);
    clearSession();
    queryClient.clear();
    navigate(paths.login, { replace: true });
  }, [navigate, queryClient]);
}
