import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until zero, ticking once a second, starting from `initialSeconds` (default `seconds`);
 * `restart()` starts again from `seconds`, `restart(n)` from n.
 */
export function useCountdown(
  seconds: number,
  initialSeconds: number = seconds,
): { secondsLeft: number; restart: (from?: number) => void } {
  const [endsAt, setEndsAt] = useState(() => Date.now() + initialSeconds * 1000);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((endsAt - now) / 1000));

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [secondsLeft]);

  const restart = useCallback(
    (from: number = seconds) => {
      const start = Date.now();
      setNow(start);
      setEndsAt(start + from * 1000);
    },
    [seconds],
  );

  return { secondsLeft, restart };
}

export function formatMinutesSeconds(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const rest = totalSeconds % 60;
  return `${minutes}:${String(rest).padStart(2, '0')}`;
}
