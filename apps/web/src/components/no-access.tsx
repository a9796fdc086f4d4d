import { Button, Stack, Text, Title } from '@mantine/core';
import { NO_ACCESS_TEXTS } from '@propusk/contracts/texts/staff';
import { useNavigate } from 'react-router';
import { useNavigationState } from '../hooks/use-navigation-state';
import { ApiError } from '../lib/api-client';
import { paths } from '../lib/paths';

/**
 * The API refused the screen's data because the caller's role on the barrier does not grant it (403
 * `barrier_permission_denied`: a dispatcher opening the users, the history or the settings). A 404, a network
 * failure or any other refusal is not this: the screen keeps its own message for those.
 */
export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.code === 'barrier_permission_denied';
}

/**
 * What a forbidden screen shows instead of its content (issue 32 item 7): «Нет доступа», what to do, and the
 * way back to the barrier's page (the barrier of the navigation state), or to the list without one.
 */
export function NoAccess() {
  const navigate = useNavigate();
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <Stack gap="sm" role="alert" data-testid="no-access">
      <Title order={2} size="h3">
        {NO_ACCESS_TEXTS.title}
      </Title>
      <Text>{NO_ACCESS_TEXTS.askOwner}</Text>
      {barrierId === null ? (
        <Button variant="light" onClick={() => navigate(paths.adminBarriers)}>
          {NO_ACCESS_TEXTS.list}
        </Button>
      ) : (
        <Button
          variant="light"
          onClick={() => navigate(paths.adminBarrierPage, { state: { barrier_id: barrierId } })}
        >
          {NO_ACCESS_TEXTS.back}
        </Button>
      )}
    </Stack>
  );
}
