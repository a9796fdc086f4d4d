import { Button, Stack, Text } from '@mantine/core';
import { useOnline } from '../hooks/use-online';
import { openedOffline, readSnapshot } from '../lib/offline-snapshot';
import { formatPhone } from '../lib/phone';

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });

/**
 * The app opened with no network (issue 43): the resident's last barriers and a call to each gate (a call
 * opens it), from the last data, «нет связи, данные от 14:02». Shown only on a page opened offline; nothing
 * here changes data.
 */
export function OfflineGates() {
  const online = useOnline();
  if (online || !openedOffline) return null;
  const snapshot = readSnapshot();
  if (!snapshot || snapshot.barriers.length === 0) return null;
  return (
    <Stack
      m="md"
      p="md"
      gap="sm"
      data-testid="offline-gates"
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8 }}
    >
      <Stack gap="sm">
        <Text fw={600}>нет связи, данные от {time(snapshot.saved_at)}</Text>
        {snapshot.barriers.map((gate) => (
          <Stack key={gate.id} gap={2}>
            <Text>{gate.address}</Text>
            <Button component="a" href={`tel:${gate.device_phone}`} variant="light">
              Позвонить на шлагбаум {formatPhone(gate.device_phone)}
            </Button>
          </Stack>
        ))}
      </Stack>
    </Stack>
  );
}
