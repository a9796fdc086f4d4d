import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { useSubmission } from '../../../hooks/use-submission';
import { QUICK_WINDOW_LABELS, QUICK_WINDOWS, quickWindow } from '../../../lib/dates';
import type { WeeklySchedule } from './phone-validation';
import { ScheduleEditor } from './schedule-editor';

type WindowField = 'start_time' | 'end_time';

interface PhoneFormFrameProps {
  isValid: boolean;
  /** Why saving is not possible yet (the first problem of the form), shown under the disabled button. */
  disabledReason?: string | undefined;
  /** Saves; resolves to an error line to show, or nothing when it moved on. */
  onSubmit: () => Promise<unknown>;
  submitLabel: string;
  children: ReactNode;
}

/**
 * The frame of the add and edit forms: it saves only while everything is valid (the button stays disabled
 * otherwise), shows the line a failed save ends with, and is busy while saving.
 */
export function PhoneFormFrame({
  isValid,
  disabledReason,
  onSubmit,
  submitLabel,
  children,
}: PhoneFormFrameProps) {
  const submission = useSubmission();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isValid) return;
    await submission.run(onSubmit);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {children}
        <ErrorLine message={submission.error} />
        <Button
          type="submit"
          disabled={!isValid}
          loading={submission.isBusy}
          fullWidth
          aria-describedby={!isValid && disabledReason ? 'save-disabled-reason' : undefined}
        >
          {submitLabel}
        </Button>
        {!isValid && disabledReason ? (
          <Text size="sm" c="dimmed" id="save-disabled-reason" data-testid="save-disabled-reason">
            {disabledReason}
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}

/**
 * Why save is disabled, when no field on screen says it yet: the first error of `shown`'s fields that its
 * field does not display (schedule rows mark their own errors).
 */
export function firstUnshownError(
  errors: Partial<Record<string, string | null | undefined>>,
  shown: Record<string, boolean>,
): string | undefined {
  for (const [field, isShown] of Object.entries(shown)) {
    const message = errors[field];
    if (!isShown && typeof message === 'string' && message !== '') return message;
  }
  return undefined;
}

/** The phone's name ('Имя'), with its message once touched. */
export function PhoneNameInput({
  value,
  onChange,
  onBlur,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  return (
    <TextInput
      label="Имя"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={onBlur}
      error={error}
      maxLength={100}
      required
    />
  );
}

interface PhoneTypeFieldsProps {
  /** temporary shows the start and end, schedule the weekly schedule, other types nothing. */
  type: string;
  values: Record<WindowField, string> & { schedule: WeeklySchedule };
  onChange: (field: WindowField, value: string) => void;
  onScheduleChange: (schedule: WeeklySchedule) => void;
  onBlur?: (field: WindowField) => void;
  /** The window's message, once the form shows it. */
  windowError: string | undefined;
  /** The schedule's message, once the form shows it. */
  scheduleError: string | null | undefined;
}

/** The fields a phone's type adds (spec.md sections 4 and 5), shared by the add and edit forms. */
export function PhoneTypeFields({
  type,
  values,
  onChange,
  onScheduleChange,
  onBlur,
  windowError,
  scheduleError,
}: PhoneTypeFieldsProps) {
  if (type === 'temporary') {
    return (
      <>
        <QuickWindowButtons
          onPick={(window) => {
            onChange('start_time', window.start_time);
            onChange('end_time', window.end_time);
          }}
        />
        <TextInput
          type="datetime-local"
          label="Начало"
          value={values.start_time}
          onChange={(event) => onChange('start_time', event.currentTarget.value)}
          onBlur={onBlur ? () => onBlur('start_time') : undefined}
          error={windowError ? true : undefined}
          required
        />
        <TextInput
          type="datetime-local"
          label="Конец"
          value={values.end_time}
          onChange={(event) => onChange('end_time', event.currentTarget.value)}
          onBlur={onBlur ? () => onBlur('end_time') : undefined}
          error={windowError}
          required
        />
      </>
    );
  }
  if (type === 'schedule') {
    return (
      <>
        <ScheduleEditor value={values.schedule} onChange={onScheduleChange} showErrors />
        <ErrorLine message={scheduleError} />
      </>
    );
  }
  return null;
}

/**
 * Quick windows for a temporary phone: from now for one hour, three hours, until 23:59 of the barrier's day,
 * or a day; they fill the start and the end, which stay editable.
 */
function QuickWindowButtons({
  onPick,
}: {
  onPick: (window: { start_time: string; end_time: string }) => void;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="quick-window-label">
        Быстро, с этой минуты
      </Text>
      <Group gap="xs" role="group" aria-labelledby="quick-window-label">
        {QUICK_WINDOWS.map((kind) => (
          <Button
            key={kind}
            variant="light"
            size="xs"
            disabled={quickWindow(kind, new Date()) === null}
            onClick={() => {
              const window = quickWindow(kind, new Date());
              if (window) onPick(window);
            }}
          >
            {QUICK_WINDOW_LABELS[kind]}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
