import { Button, Card, Stack, Text } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { COMMON_MESSAGES, NAME_FALLBACK, PHONE_FALLBACK } from '@propusk/contracts/texts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { UserText } from '../../../components/user-text';
import {
  accessRequestsKey,
  createAccessRequest,
} from '../../../features/access-requests/api/access-requests-api';
import { barrierQueryKey, getBarrier } from '../../../features/barriers/api/barriers-api';
import { BlockedNotice } from '../../../features/barriers/components/blocked-notice';
import { PendingRequestLine } from '../../../features/barriers/components/pending-request-line';
import { profileQueryOptions } from '../../../features/users/api/profile-api';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { barrierListPath } from './barrier-list-path';
import { userNavigation } from './navigation';

/**
 * spec.md section 8: 'already has access' is 'У вас уже есть доступ к шлагбауму.'; any other refusal shows the
 * Russian text of its code (a pending request, a block…), anything else 'Ошибка при отправке запроса'.
 */
function requestErrorMessage(error: unknown): string {
  return errorMessage(error, {
    fallback: REQUEST_MESSAGES.requestFailed,
    network: REQUEST_MESSAGES.requestFailed,
  });
}

/** /barrier-details: the public card of a barrier with 'Отправить запрос' (spec.md section 2). */
export function BarrierDetailsRoute() {
  const { barrier_id: barrierId } = useNavigationState();
  return (
    <AppLayout
      title="Шлагбаум"
      back={{ to: barrierListPath(), label: 'К шлагбаумам' }}
      navigation={userNavigation}
    >
      {barrierId ? <BarrierDetails barrierId={barrierId} /> : <MissingBarrier listPath={paths.barriers} />}
    </AppLayout>
  );
}

function BarrierDetails({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const barrier = useQuery({ queryKey: barrierQueryKey(barrierId), queryFn: () => getBarrier(barrierId) });
  const profile = useQuery(profileQueryOptions);
  const send = useMutation({
    mutationFn: async () => {
      const me = profile.data ?? (await queryClient.fetchQuery(profileQueryOptions));
      return createAccessRequest('user', { user: me.id, barrier: barrierId });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accessRequestsKey('user') });
      await queryClient.invalidateQueries({ queryKey: barrierQueryKey(barrierId) });
      await queryClient.invalidateQueries({ queryKey: ['barriers', 'list'] });
    },
  });
  const pending = barrier.data && !barrier.data.has_access ? barrier.data.pending_request : null;

  return (
    <>
      <QueryStatus
        isPending={barrier.isPending}
        error={
          barrier.error
            ? errorMessage(barrier.error, {
                fallback: COMMON_MESSAGES.loadFailed,
                byStatus: { 404: COMMON_MESSAGES.barrierNotFound },
              })
            : null
        }
      />
      {barrier.data ? (
        <Card withBorder radius="md">
          <Stack gap="xs">
            <Text fw={700} size="lg" data-testid="barrier-address">
              <UserText>{barrier.data.address}</UserText>
            </Text>
            {barrier.data.additional_info ? (
              <Text>
                <UserText>{barrier.data.additional_info}</UserText>
              </Text>
            ) : null}
            <Text size="sm">
              Администратор: <UserText fallback={NAME_FALLBACK}>{barrier.data.owner.full_name}</UserText>,{' '}
              {formatPhone(barrier.data.owner.phone) || PHONE_FALLBACK}
            </Text>
            {barrier.data.block_reason ? (
              <BlockedNotice reason={barrier.data.block_reason} />
            ) : (
              <>
                <SuccessLine message={send.isSuccess ? REQUEST_MESSAGES.requestSent : null} />
                <ErrorLine message={send.error ? requestErrorMessage(send.error) : null} />
                <PendingRequestLine pendingRequest={pending ?? null} hasAccess={false} />
                {pending ? null : (
                  <Button onClick={() => send.mutate()} loading={send.isPending} disabled={send.isSuccess}>
                    Отправить запрос
                  </Button>
                )}
              </>
            )}
          </Stack>
        </Card>
      ) : null}
    </>
  );
}

export default BarrierDetailsRoute;
