import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { useFormDraft } from '../../../hooks/use-form-draft';
import { fromDateTimeLocal, quickWindow } from '../../../lib/dates';

const QUICK = [
  { kind: 'three_hours', label: '3 часа' },
  { kind: 'today', label: 'До конца дня' },
  { kind: 'day', label: 'Сутки' },
] as const;

export interface GuestPassWindow {
  start: string;
  end: string;
}

/** The form's draft name: a screen that shows the form on a tap opens it when a draft waits (useHasDraft). */
export const GUEST_PASS_DRAFT = 'guest-pass';

interface GuestPassWindowFormProps {
  onSubmit: (window: GuestPassWindow) => void;
  onCancel: () => void;
  isPending: boolean;
  error: string | null;
  /** Extra fields above the window (the administrator's choice of the resident). */
  children?: ReactNode;
}

/**
 * The window of a new guest pass (issue 14 part 5): quick choices (3 hours, until the end of the day, a day)
 * fill the start and the end, which can be typed too; «Создать ссылку» makes the pass. Shared by the resident's section and the administrator's screen.
 */
export function GuestPassWindowForm({
  onSubmit,
  onCancel,
  isPending,
  error,
  children,
}: GuestPassWindowFormProps) {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [quick, setQuick] = useState<string | null>(null);
  // The window he chose outlives an ended session (issue 41; the screen opens the form for it).
  useFormDraft(GUEST_PASS_DRAFT, { start, end, quick }, (saved) => {
    if (typeof saved.start === 'string') setStart(saved.start);
    if (typeof saved.end === 'string') setEnd(saved.end);
    if (typeof saved.quick === 'string') setQuick(saved.quick);
  });

  // A quick choice only fills the window: one «Создать ссылку» makes one pass (issue 32 item 7; a tap on a
  // quick button used to make a pass at once, and trying the buttons made three).
  function fill(kind: (typeof QUICK)[number]['kind']) {
    const chosen = quickWindow(kind, new Date());
    if (!chosen) return;
    setStart(chosen.start_time);
    setEnd(chosen.end_time);
    setQuick(kind);
  }

  return (
    <Card withBorder radius="md" data-testid="guest-pass-form">
      <Stack gap="xs">
        {children}
        <Text fw={600}>На какое время?</Text>
        <Group grow>
          {QUICK.map(({ kind, label }) => (
            <Button
              key={kind}
              variant={quick === kind ? 'filled' : 'light'}
              aria-pressed={quick === kind}
              onClick={() => fill(kind)}
            >
              {label}
            </Button>
          ))}
        </Group>
        <TextInput
          type="datetime-local"
          label="Начало"
          value={start}
          onChange={(event) => {
            setStart(event.currentTarget.value);
            setQuick(null);
          }}
        />
        <TextInput
          type="datetime-local"
          label="Конец"
          value={end}
          onChange={(event) => {
            setEnd(event.currentTarget.value);
            setQuick(null);
          }}
        />
        <ErrorLine message={error} />
        <Button
          disabled={!start || !end}
          loading={isPending}
          onClick={() => onSubmit({ start: fromDateTimeLocal(start), end: fromDateTimeLocal(end) })}
        >
          Создать ссылку
        </Button>
        <Button variant="subtle" onClick={onCancel}>
          Отмена
        </Button>
      </Stack>
    </Card>
  );
}
