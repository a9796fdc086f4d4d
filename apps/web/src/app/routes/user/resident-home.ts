import type { accessRequestListSchema } from '@propusk/contracts/access-requests';
import type { myBarrierListSchema } from '@propusk/contracts/barriers';
import type { BarrierSummary } from '../../../features/barriers/api/barriers-api';
import { api, sendEarlyRead } from '../../../lib/api-client';
import { rememberBarriers } from '../../../lib/offline-snapshot';
import { type NavigationState, paths } from '../../../lib/paths';
import { readStored } from '../../../lib/storage';

/** His invitations waiting for his answer: only whether there is one (also the bottom bar's count). */
const PENDING_INVITATIONS_QUERY = { type: 'incoming', status: 'pending', page: 1, page_size: 1 };

/** The requests screen opened on «Входящие» (access-requests-screen.tsx reads `?tab=`). */
export const incomingRequestsPath = `${paths.requests}?tab=incoming`;

export interface ResidentHome {
  to: string;
  state?: NavigationState;
  /** His one barrier's row of the list: its screen draws the card from it until the card's own read is in. */
  barrier?: BarrierSummary;
}

/**
 * Where a resident's session starts (issue 32 item 4): the gate one tap away. One barrier: its screen
 * («Открыть» and «Позвонить» first); several: his barrier list, each row with both; none but an invitation
 * waiting for his answer: «Заявки → Входящие»; otherwise his profile (spec.md's /user), which then starts with
 * what to do next (issue 41 major 5, profile.tsx). The two reads go out together; if either fails, «Мои
 * шлагбаумы»: it reads again and shows its error with «Повторить» (issue 41: not a silent profile).
 */
export async function findResidentHome(): Promise<ResidentHome> {
  try {
    const [barriers, invitations] = await Promise.all([
      api.get<typeof myBarrierListSchema>('/api/barriers/my/', { query: { page: 1, page_size: 2 } }),
      api.get<typeof accessRequestListSchema>('/api/access_requests/my/', {
        query: PENDING_INVITATIONS_QUERY,
      }),
    ]);
    rememberBarriers(barriers.barriers);
    const [first] = barriers.barriers;
    if (barriers.total_count === 1 && first)
      return { to: paths.myBarrier, state: { barrier_id: first.id }, barrier: first };
    if (barriers.total_count > 1) return { to: paths.barriers };
    if (invitations.total_count > 0) return { to: incomingRequestsPath };
    return { to: paths.user };
  } catch {
    return { to: paths.barriers };
  }
}

/** The reads the entry started for a page opened on /start, not yet taken by the /start screen. */
let earlyHome: Promise<ResidentHome> | null = null;

/**
 * A page opened on /start with a stored session (a returning resident) sends /start's two reads from the entry,
 * before the router's chunk has loaded; the /start screen then takes the answer instead of asking again (issue 32
 * item 8). His barrier screen's code is left to /start (start.tsx): its import here would put that chunk's list
 * of files into the login's entry, past its 100 KB budget.
 */
export function startResidentHomeEarly(): void {
  if (window.location.pathname.replace(/\/+$/, '') !== paths.start) return;
  if (!readStored('access_token') && !readStored('refresh_token')) return;
  // The consent gate's profile and the bottom bar's count of invitations are read by every screen behind a
  // login; the count is the same read as /start's own (two takers).
  sendEarlyRead('/api/users/me/');
  sendEarlyRead('/api/access_requests/my/', PENDING_INVITATIONS_QUERY, 2);
  earlyHome = findResidentHome().then((home) => {
    if (home.barrier) sendBarrierScreenReadsEarly(home.barrier.id);
    return home;
  });
}

/**
 * What his one barrier's screen (my-barrier.tsx) reads first, sent as soon as /start's reads name the barrier:
 * the answers are in by the time the router's chunk has loaded, and the screen is drawn whole in one go
 * rather than card first, then a round trip later the rest (issue 32 item 8). The same URLs as the screen's
 * api functions (getBarrier, getLimits, getMyPhones, getGuestPasses, getOpenings; resident-home.test.ts checks).
 */
export function sendBarrierScreenReadsEarly(barrierId: number): void {
  const barrier = `/api/barriers/${barrierId}`;
  sendEarlyRead(`${barrier}/`);
  sendEarlyRead(`${barrier}/limits/`);
  sendEarlyRead(`${barrier}/phones/my/`, { page_size: 100 });
  sendEarlyRead(`${barrier}/guest-passes/`, { page_size: 100 });
  sendEarlyRead(`${barrier}/openings/`, { page: 1, page_size: 10 });
}

/** The entry's reads once (a later visit to /start asks again), or a fresh pair. */
export function takeResidentHome(): Promise<ResidentHome> {
  const home = earlyHome ?? findResidentHome();
  earlyHome = null;
  return home;
}
