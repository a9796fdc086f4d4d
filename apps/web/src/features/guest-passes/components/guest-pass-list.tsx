import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/errors';
import type { GuestPass } from '../api/guest-passes-api';
import { GuestPassCard } from './guest-pass-card';
import { RevokeGuestPassDialog } from './revoke-guest-pass-dialog';

/** The error line of a failed revocation. */
export const revokeGuestPassError = (error: unknown) =>
  error ? errorMessage(error, { fallback: 'Не удалось отозвать пропуск.' }) : null;

/**
 * The passes as cards, each with «Отозвать» behind its confirmation: the resident's section on /mybarrier and
 * the administrator's screen of a barrier's passes (each gives the call that revokes and what to refresh).
 */
export function GuestPassList({
  passes,
  revokePass,
  onSettled,
}: {
  passes: GuestPass[] | undefined;
  revokePass: (passId: number) => Promise<unknown>;
  onSettled: () => Promise<unknown>;
}) {
  const [toRevoke, setToRevoke] = useState<GuestPass | null>(null);
  const revoke = useMutation({
    mutationFn: revokePass,
    onSuccess: () => setToRevoke(null),
    onSettled,
  });
  return (
    <>
      {passes?.map((pass) => (
        <GuestPassCard
          key={pass.id}
          pass={pass}
          onRevoke={(chosen) => {
            revoke.reset();
            setToRevoke(chosen);
          }}
        />
      ))}
      <RevokeGuestPassDialog
        pass={toRevoke}
        onConfirm={(pass) => revoke.mutate(pass.id)}
        onCancel={() => setToRevoke(null)}
        isBusy={revoke.isPending}
        error={revokeGuestPassError(revoke.error)}
      />
    </>
  );
}
