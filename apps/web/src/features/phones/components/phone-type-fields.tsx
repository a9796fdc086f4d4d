import { TextInput } from '@mantine/core';
import { ErrorLine } from '../../../components/status-line';
import type { WeeklySchedule } from './phone-validation';
import { ScheduleEditor } from './schedule-editor';

type WindowField = 'start_time' | 'end_time';

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
