/** The client log push (DESIGN.md section 7: `POST /api/logs/ {level, app, page, message}` → 204). */
import type { ClientLogBody } from '@propusk/contracts/client-logs';
import { api } from '../../../lib/api-client';

/** Never fails the screen: a log that cannot be sent is dropped. */
export function pushClientLog(entry: Omit<ClientLogBody, 'app'>): void {
  void api
    .post('/api/logs/', { app: 'web', ...entry } satisfies ClientLogBody, { auth: false })
    .catch(() => undefined);
}
