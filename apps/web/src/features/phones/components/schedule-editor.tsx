import { ActionIcon, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { PHONE_VALIDATION, WEEKDAY_LABELS, WEEKDAYS, type Weekday } from '@propusk/contracts/texts/phones';
import {
  copyDayTo,
  DEFAULT_INTERVAL,
  isIntervalValid,
  type WeeklySchedule,
  WORKDAYS,
} from './phone-validation';

interface ScheduleEditorProps {
  value: WeeklySchedule;
  onChange: (value: WeeklySchedule) => void;
  /** Once touched, wrong intervals show 'Неверный интервал.' and red borders. */
  showErrors: boolean;
}

/**
 * The weekly schedule, one block per weekday in Russian (spec.md sections 2 and 5): intervals with a start and
 * an end (the browser's `time` inputs, so a phone opens its own picker), 'Добавить интервал' (08:00–12:00),
 * and a delete button per interval. A day with intervals can be copied to the working days or to every day.
 */
export function ScheduleEditor({ value, onChange, showErrors }: ScheduleEditorProps) {
  const update = (day: Weekday, intervals: WeeklySchedule[Weekday]) =>
    onChange({ ...value, [day]: intervals });
  return (
    <Stack gap="sm">
      {WEEKDAYS.map((day) => (
        <Card key={day} withBorder radius="md" p="sm" component="fieldset" aria-label={WEEKDAY_LABELS[day]}>
          <Stack gap="xs">
            <Text fw={600} component="legend" p={0}>
              {WEEKDAY_LABELS[day]}
            </Text>
            {value[day].map((interval, index) => {
              const isInvalid = showErrors && !isIntervalValid(interval);
              const rowLabel = `${WEEKDAY_LABELS[day]}, интервал ${index + 1}`;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no identity besides their position
                <Stack key={index} gap={4} data-testid={`interval-${day}-${index}`}>
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <TextInput
                      type="time"
                      label="Начало"
                      aria-label={`${rowLabel}: начало`}
                      value={interval.start_time}
                      error={isInvalid}
                      onChange={(event) =>
                        update(
                          day,
                          value[day].map((item, i) =>
                            i === index ? { ...item, start_time: event.currentTarget.value } : item,
                          ),
                        )
                      }
                      style={{ flex: 1 }}
                    />
                    <TextInput
                      type="time"
                      label="Конец"
                      aria-label={`${rowLabel}: конец`}
                      value={interval.end_time}
                      error={isInvalid}
                      onChange={(event) =>
                        update(
                          day,
                          value[day].map((item, i) =>
                            i === index ? { ...item, end_time: event.currentTarget.value } : item,
                          ),
                        )
                      }
                      style={{ flex: 1 }}
                    />
                    <ActionIcon
                      variant="light"
                      color="red.9"
                      size="lg"
                      aria-label={`Удалить интервал (${rowLabel})`}
                      onClick={() =>
                        update(
                          day,
                          value[day].filter((_, i) => i !== index),
                        )
                      }
                    >
                      ✕
                    </ActionIcon>
                  </Group>
                  {isInvalid ? (
                    <Text c="red.9" size="xs">
                      {PHONE_VALIDATION.intervalInvalid}
                    </Text>
                  ) : null}
                </Stack>
              );
            })}
            <Button
              variant="subtle"
              size="xs"
              onClick={() => update(day, [...value[day], { ...DEFAULT_INTERVAL }])}
              aria-label={`Добавить интервал: ${WEEKDAY_LABELS[day]}`}
            >
              Добавить интервал
            </Button>
            {value[day].length > 0 ? (
              <>
                <Button
                  variant="subtle"
                  size="xs"
                  onClick={() => onChange(copyDayTo(value, day, WORKDAYS))}
                  aria-label={`Копировать на будни: ${WEEKDAY_LABELS[day]}`}
                >
                  Копировать на будни
                </Button>
                <Button
                  variant="subtle"
                  size="xs"
                  onClick={() => onChange(copyDayTo(value, day, WEEKDAYS))}
                  aria-label={`Копировать на все дни: ${WEEKDAY_LABELS[day]}`}
                >
                  Копировать на все дни
                </Button>
              </>
            ) : null}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
