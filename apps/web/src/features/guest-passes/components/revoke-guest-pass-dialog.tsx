import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatPhone } from '../../../lib/phone';
import type { GuestPass } from '../api/guest-passes-api';

/** The confirmation of a revocation: a used pass's number leaves the device, an unused link stops working. */
export function RevokeGuestPassDialog({
  pass,
  onConfirm,
  onCancel,
  isBusy,
  error,
}: {
  pass: GuestPass | null;
  onConfirm: (pass: GuestPass) => void;
  onCancel: () => void;
  isBusy: boolean;
  error: string | null;
}) {
  return (
    <ConfirmDialog
      opened={pass !== null}
      message={
        pass?.status === 'used'
          ? `Отозвать пропуск? Номер ${formatPhone(pass.used_phone)} будет удалён с устройства.`
          : 'Отозвать пропуск? Ссылка перестанет работать.'
      }
      confirmLabel="Да, отозвать"
      onConfirm={() => pass && onConfirm(pass)}
      onCancel={onCancel}
      isBusy={isBusy}
      error={error}
    />
  );
}

/** Whether a pass can still be revoked (waiting, or used and its number still on the device). */
export const isRevocable = (pass: GuestPass) => pass.status === 'created' || pass.status === 'used';
