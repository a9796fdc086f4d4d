import { Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { DEVICE_CHECK_TEXTS as TEXTS } from '@propusk/contracts/texts/device-check';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DeviceText } from '../../../components/device-text';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { formatPhone, isCompletePhone } from '../../../lib/phone';
import {
  type DeviceCheck,
  deviceCheckQueryKey,
  getDeviceCheck,
  repairDevice,
  setDeviceAudit,
  startDeviceCheck,
} from '../api/device-check-api';

/** While the device is being read, look again this often. */
const READING_REFRESH_MS = 1000;

function statusLine(check: DeviceCheck): string {
  switch (check.status) {
    case 'reading':
      return TEXTS.reading(check.queries_answered, check.queries_total);
    case 'ready':
      return TEXTS.ready;
    case 'repaired':
      return TEXTS.repaired;
    case 'cancelled':
      return TEXTS.cancelled;
    case 'failed':
      return `${TEXTS.failed}: ${TEXTS.failures[check.failure ?? 'no_reply'] ?? ''}`;
  }
}

/**
 * A slot's content in plain Russian (issue 32 item 5): a number as every screen formats it (no-break spaces),
 * «пусто», or, when the unit reported something that is not a number, its raw text under «Ответ устройства».
 */
function SlotContent({ value }: { value: string | null }) {
  if (value === null) return TEXTS.empty;
  if (isCompletePhone(value)) return <span data-testid="slot-number">{formatPhone(value)}</span>;
  return (
    <Stack gap={2}>
      <Text size="sm">{TEXTS.notANumber}</Text>
      <DeviceText side="reply">{value}</DeviceText>
    </Stack>
  );
}

/**
 * "Проверить устройство": starts a read-back, shows its progress, then the slots where the device differs
 * from the database and what the repair costs; the repair is sent after a confirmation.
 */
export function DeviceCheckPanel({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const check = useQuery({
    // What the device said changes without this screen doing anything: always read it afresh.
    staleTime: 0,
    queryKey: deviceCheckQueryKey(barrierId),
    queryFn: () => getDeviceCheck(barrierId),
    refetchInterval: (query) => (query.state.data?.check?.status === 'reading' ? READING_REFRESH_MS : false),
  });
  const auditEveryDays = check.data?.audit_every_days ?? null;
  const setCheck = (value: DeviceCheck) =>
    queryClient.setQueryData(deviceCheckQueryKey(barrierId), {
      check: value,
      audit_every_days: auditEveryDays,
    });
  const audit = useMutation({
    mutationFn: (everyDays: number | null) => setDeviceAudit(barrierId, everyDays),
    onSuccess: (data) =>
      queryClient.setQueryData(deviceCheckQueryKey(barrierId), {
        check: check.data?.check ?? null,
        audit_every_days: data.audit_every_days,
      }),
  });
  const start = useMutation({
    mutationFn: (full: boolean) => startDeviceCheck(barrierId, full),
    onSuccess: (data) => {
      if (data.check) setCheck(data.check);
    },
  });
  const repair = useMutation({
    mutationFn: () => repairDevice(barrierId),
    onSuccess: (data) => {
      setIsConfirming(false);
      setCheck(data.check);
    },
  });
  const data = check.data?.check ?? null;
  const isReading = data?.status === 'reading';

  return (
    <Card withBorder radius="md" data-testid="device-check">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {TEXTS.panelTitle}
        </Title>
        <Text size="sm">{TEXTS.startHint}</Text>
        <QueryStatus isPending={check.isPending} error={check.error ? TEXTS.loadFailed : null} />
        {check.isSuccess && !data ? <Text size="sm">{TEXTS.never}</Text> : null}
        {data ? (
          <Text
            size="sm"
            fw={600}
            data-testid="device-check-status"
            c={data.status === 'failed' ? 'red.9' : undefined}
          >
            {statusLine(data)}
          </Text>
        ) : null}
        {data?.automatic ? <Text size="sm">{TEXTS.automatic}</Text> : null}
        {data && (data.status === 'ready' || data.status === 'repaired') ? (
          data.differences.length === 0 ? (
            <InStep check={data} />
          ) : (
            <Table withTableBorder data-testid="device-check-differences">
              <Table.Caption>{TEXTS.differences}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{TEXTS.slot}</Table.Th>
                  <Table.Th>{TEXTS.onDevice}</Table.Th>
                  <Table.Th>{TEXTS.expected}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.differences.map((difference) => (
                  <Table.Tr key={`${difference.slot}-${difference.device}-${difference.expected}`}>
                    <Table.Td>{difference.slot ?? TEXTS.noSlot}</Table.Td>
                    <Table.Td>
                      <SlotContent value={difference.device} />
                    </Table.Td>
                    <Table.Td>
                      <SlotContent value={difference.expected} />
                    </Table.Td>
                    <Table.Td>{TEXTS.actions[difference.action]}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        ) : null}
        {data?.status === 'ready' && data.repair_sms > 0 ? (
          isConfirming ? (
            <Stack gap="xs">
              <Text size="sm">{TEXTS.confirmRepair(data.repair_sms)}</Text>
              <Group grow>
                <Button loading={repair.isPending} onClick={() => repair.mutate()}>
                  {TEXTS.confirm}
                </Button>
                <Button variant="default" onClick={() => setIsConfirming(false)}>
                  {TEXTS.cancel}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Stack gap="xs">
              {data.repair_numbers_sms === 0 ? (
                <>
                  <Text size="sm" fw={600}>
                    {TEXTS.clockTitle}
                  </Text>
                  <Text size="sm">{TEXTS.clockRepairCost(data.repair_clock_sms)}</Text>
                </>
              ) : (
                <Stack gap={2} data-testid="device-check-repair-cost">
                  <Text size="sm" fw={600}>
                    {TEXTS.repairCost(data.repair_sms)}
                  </Text>
                  <Text size="sm">{TEXTS.repairNumbersCost(data.repair_numbers_sms)}</Text>
                  {data.repair_clock_sms > 0 ? (
                    <Text size="sm">{TEXTS.repairClockCost(data.repair_clock_sms)}</Text>
                  ) : null}
                </Stack>
              )}
              <Button onClick={() => setIsConfirming(true)}>{TEXTS.repair}</Button>
            </Stack>
          )
        ) : null}
        <Group grow>
          <Button loading={start.isPending} disabled={isReading} onClick={() => start.mutate(false)}>
            {TEXTS.start}
          </Button>
          <Button variant="light" disabled={isReading || start.isPending} onClick={() => start.mutate(true)}>
            {TEXTS.startFull}
          </Button>
        </Group>
        {check.data ? (
          <Select
            label={TEXTS.audit}
            description={TEXTS.auditHint}
            data={TEXTS.auditOptions}
            value={auditEveryDays === null ? 'off' : String(auditEveryDays)}
            onChange={(value) => audit.mutate(!value || value === 'off' ? null : Number(value))}
            allowDeselect={false}
          />
        ) : null}
        {audit.isSuccess ? <SuccessLine message={TEXTS.auditSaved} /> : null}
        <ErrorLine
          message={audit.error ? errorMessage(audit.error, { fallback: TEXTS.auditFailed }) : null}
        />
        <ErrorLine
          message={
            start.error
              ? errorMessage(start.error, { fallback: TEXTS.startFailed })
              : repair.error
                ? errorMessage(repair.error, { fallback: TEXTS.repairFailed })
                : null
          }
        />
      </Stack>
    </Card>
  );
}

/**
 * No differences: over the whole unit, or over the slots read only (issue 41: slots 1–20 read, a number in
 * slot 50 unseen, and «совпадают» claimed for the whole unit).
 */
function InStep({ check }: { check: DeviceCheck }) {
  const to = check.slots_read_to;
  const count = check.slot_count;
  if (to == null || count == null || to >= count) return <Text size="sm">{TEXTS.inStep}</Text>;
  return (
    <>
      <Text size="sm" data-testid="device-check-in-step">
        {TEXTS.inStepRange(to)}
      </Text>
      <Text size="sm" c="gray.8" data-testid="device-check-not-read">
        {TEXTS.notRead(to + 1, count)}
      </Text>
    </>
  );
}
