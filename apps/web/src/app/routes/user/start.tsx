import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { barrierRowQueryKey } from '../../../features/barriers/api/barriers-api';
import { returnsTakenSoFar } from '../../../lib/return-after-login';
import { takeResidentHome } from './resident-home';

/**
 * /start: where a resident's session begins, after the code login and when a stored session opens / or /login
 * (issue 32 item 4). A screen rather than the loaders' work, so that the barrier's id travels in navigation
 * state as everywhere else, and so that the login screen's first load carries none of it (its budget).
 */
export function StartRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    // Most residents have one barrier: its screen's code loads while the two reads are on their way rather than
    // after them (issue 32 item 8; the router's lazy route then finds it loaded). A page opened on /start sent
    // the reads from the entry already (resident-home.ts).
    void import('./my-barrier').catch(() => undefined);
    let isCurrent = true;
    // The first screen behind the login may send him back where his ended session left him (require-session.tsx)
    // while these reads are on their way. That navigation waits for its screen's code and leaves /start mounted
    // meanwhile; a navigation from here would replace it (a resident restored to /add-phone landed on /mybarrier
    // under CI's load). Once a return is taken, home is not where he goes.
    const returnsBefore = returnsTakenSoFar();
    void takeResidentHome().then((home) => {
      if (!isCurrent || returnsTakenSoFar() !== returnsBefore) return;
      // His barrier's card is drawn from the list's row while its own read is on its way (issue 32 item 8).
      if (home.barrier) queryClient.setQueryData(barrierRowQueryKey(home.barrier.id), home.barrier);
      navigate(home.to, { replace: true, state: home.state ?? null });
    });
    return () => {
      isCurrent = false;
    };
  }, [navigate, queryClient]);
  return (
    <Center mih="100dvh">
      <Loader aria-label="Загрузка" />
    </Center>
  );
}

export default StartRoute;
