import { Button, Card, Checkbox, List, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import {
  DEFINED_NUMBER_FORMATS,
  type DefinedFormKey,
  type DefinedReplyKey,
  type ModelDefinition,
  readModelDefinition,
} from '@propusk/contracts/device-model-definition';
import { DEFINED_MODEL_TEXTS as TEXTS } from '@propusk/contracts/texts/device-models';
import { definitionSmsProblems, previewDefinition } from '@propusk/devices/defined-model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DeviceText } from '../../../components/device-text';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { type DeviceModelView, deviceModelsQueryKey, saveDeviceModel } from '../api/device-models-api';

/** A new model's starting point: the shape filled, the forms empty. */
export const EMPTY_DEFINITION: ModelDefinition = {
  name: '',
  addressing: 'slot',
  capacity: 100,
  slot_digits: 3,
  number_format: '+7',
  password: { digits: 4, factory: null },
  windows: false,
  clock_order: null,
  read_per_sms: 1,
  forms: {
    add: { template: '' },
    add_window: null,
    delete: { template: '' },
    set_clock: null,
    read: null,
    open: null,
  },
  replies: {
    add: [],
    add_window: [],
    delete: [],
    set_clock: [],
    refused: [],
    format_error: [],
    read_line: [],
    read_empty: [],
    open: [],
  },
  batch: null,
  settings: [],
};

/** Every problem the screen can tell before sending (the server checks the same again). */
export function definitionProblems(definition: ModelDefinition): string[] {
  const shape = readModelDefinition(definition);
  return shape.ok ? definitionSmsProblems(shape.definition) : shape.problems;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const settingsText = (definition: ModelDefinition) =>
  definition.settings.map((setting) => `${setting.name} = ${setting.template}`).join('\n');

function withSettings(definition: ModelDefinition, text: string): ModelDefinition['settings'] {
  return lines(text).map((line) => {
    const at = line.indexOf('=');
    const name = at < 0 ? line : line.slice(0, at).trim();
    const template = at < 0 ? '' : line.slice(at + 1).trim();
    const kept = definition.settings.find(
      (setting) => setting.name === name && setting.template === template,
    );
    return kept ?? { name, template, replies: [] };
  });
}

/** A whole number typed as digits (0 while empty: the check then names the field). */
function IntegerInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <TextInput
      label={label}
      value={value === 0 ? '' : String(value)}
      onChange={(event) => onChange(Number(event.currentTarget.value.replace(/\D/g, '').slice(0, 5)) || 0)}
      inputMode="numeric"
      autoComplete="off"
    />
  );
}

const OPTIONAL_FORMS: readonly Exclude<DefinedFormKey, 'add' | 'delete'>[] = [
  'add_window',
  'set_clock',
  'read',
  'open',
];

/** The form editor of one model: fields, the forms and replies, the preview with sample values, save. */
export function ModelEditor({
  model,
  initial,
  onDone,
}: {
  model: DeviceModelView | null;
  initial: ModelDefinition;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [definition, setDefinition] = useState<ModelDefinition>(initial);
  const [settings, setSettings] = useState(settingsText(initial));
  const [isSubmitted, setIsSubmitted] = useState(false);
  const current: ModelDefinition = { ...definition, settings: withSettings(definition, settings) };
  const problems = definitionProblems(current);
  const save = useMutation({
    mutationFn: () => saveDeviceModel(model?.id ?? null, { definition: current }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: deviceModelsQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['admin', 'barrier-defined-model'] });
      onDone();
    },
  });
  const set = <K extends keyof ModelDefinition>(key: K, value: ModelDefinition[K]) =>
    setDefinition((previous) => ({ ...previous, [key]: value }));
  const setForm = (key: DefinedFormKey, template: string | null) =>
    setDefinition((previous) => ({
      ...previous,
      forms: { ...previous.forms, [key]: template === null ? null : { ...previous.forms[key], template } },
    }));
  const setReplies = (key: DefinedReplyKey, text: string) =>
    setDefinition((previous) => ({ ...previous, replies: { ...previous.replies, [key]: lines(text) } }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setIsSubmitted(true);
    if (problems.length === 0) save.mutate();
  }

  const formInput = (key: DefinedFormKey, optional: boolean) => (
    <TextInput
      key={key}
      label={TEXTS.forms[key]}
      value={definition.forms[key]?.template ?? ''}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setForm(key, optional && value === '' ? null : value);
      }}
      autoComplete="off"
      spellCheck={false}
    />
  );
  const replyInput = (key: DefinedReplyKey) => (
    <Textarea
      key={key}
      label={TEXTS.replies[key]}
      description={TEXTS.fields.repliesHint}
      defaultValue={definition.replies[key].join('\n')}
      onChange={(event) => setReplies(key, event.currentTarget.value)}
      autosize
      minRows={1}
      spellCheck={false}
    />
  );

  const preview = problems.length === 0 ? previewDefinition(current) : [];
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={TEXTS.fields.name}
          value={definition.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          required
        />
        <Select
          label={TEXTS.fields.addressing}
          data={[
            { value: 'slot', label: TEXTS.fields.addressingSlot },
            { value: 'number', label: TEXTS.fields.addressingNumber },
          ]}
          value={definition.addressing}
          onChange={(value) => set('addressing', value === 'number' ? 'number' : 'slot')}
          allowDeselect={false}
        />
        <IntegerInput
          label={TEXTS.fields.capacity}
          value={definition.capacity}
          onChange={(value) => set('capacity', value)}
        />
        <IntegerInput
          label={TEXTS.fields.slotDigits}
          value={definition.slot_digits}
          onChange={(value) => set('slot_digits', value)}
        />
        <Select
          label={TEXTS.fields.numberFormat}
          data={DEFINED_NUMBER_FORMATS.map((format) => ({
            value: format,
            label: format === '10' ? '10 цифр без кода страны' : `${format} и 10 цифр`,
          }))}
          value={definition.number_format}
          onChange={(value) => set('number_format', (value ?? '+7') as ModelDefinition['number_format'])}
          allowDeselect={false}
        />
        <Checkbox
          label={TEXTS.fields.hasPassword}
          checked={definition.password !== null}
          onChange={(event) =>
            set('password', event.currentTarget.checked ? { digits: 4, factory: null } : null)
          }
        />
        {definition.password ? (
          <>
            <IntegerInput
              label={TEXTS.fields.passwordDigits}
              value={definition.password.digits}
              onChange={(value) =>
                set('password', { factory: definition.password?.factory ?? null, digits: value })
              }
            />
            <TextInput
              label={TEXTS.fields.factoryPassword}
              value={definition.password.factory ?? ''}
              onChange={(event) => {
                const factory = event.currentTarget.value.replace(/\D/g, '').slice(0, 8);
                set('password', {
                  digits: definition.password?.digits ?? 4,
                  factory: factory === '' ? null : factory,
                });
              }}
              inputMode="numeric"
              autoComplete="off"
            />
          </>
        ) : null}
        <Checkbox
          label={TEXTS.fields.windows}
          checked={definition.windows}
          onChange={(event) => {
            const windows = event.currentTarget.checked;
            setDefinition((previous) => ({
              ...previous,
              windows,
              clock_order: windows ? (previous.clock_order ?? 'yyMMddHHmm') : null,
              forms: windows ? previous.forms : { ...previous.forms, add_window: null, set_clock: null },
            }));
          }}
        />
        {definition.windows ? (
          <Select
            label={TEXTS.fields.clockOrder}
            data={['yyMMddHHmm', 'ddMMyyHHmm']}
            value={definition.clock_order ?? 'yyMMddHHmm'}
            onChange={(value) => set('clock_order', value === 'ddMMyyHHmm' ? 'ddMMyyHHmm' : 'yyMMddHHmm')}
            allowDeselect={false}
          />
        ) : null}
        <Title order={4}>Команды</Title>
        {formInput('add', false)}
        {formInput('delete', false)}
        {OPTIONAL_FORMS.filter(
          (key) => definition.windows || (key !== 'add_window' && key !== 'set_clock'),
        ).map((key) => formInput(key, true))}
        {definition.forms.read && /\{from\}|\{to\}/.test(definition.forms.read.template) ? (
          <IntegerInput
            label={TEXTS.fields.readPerSms}
            value={definition.read_per_sms}
            onChange={(value) => set('read_per_sms', value)}
          />
        ) : null}
        <Textarea
          label={TEXTS.fields.settings}
          value={settings}
          onChange={(event) => setSettings(event.currentTarget.value)}
          autosize
          minRows={1}
          spellCheck={false}
        />
        <Title order={4}>Ответы устройства</Title>
        {(Object.keys(TEXTS.replies) as DefinedReplyKey[]).map(replyInput)}
        {preview.length > 0 ? (
          <Card withBorder padding="sm" data-testid="model-preview">
            <Stack gap="xs">
              <Title order={4}>{TEXTS.previewTitle}</Title>
              {preview.map((form) => (
                <Stack key={form.label} gap={2}>
                  <Text size="sm" fw={600}>
                    {form.label}
                  </Text>
                  <DeviceText side="sms">{form.text}</DeviceText>
                  <Text size="xs" c="dimmed">
                    {TEXTS.previewSms(form.units, form.limit)}
                  </Text>
                </Stack>
              ))}
            </Stack>
          </Card>
        ) : null}
        {isSubmitted && problems.length > 0 ? (
          <Card withBorder padding="sm" data-testid="model-problems">
            <Text size="sm" fw={600} c="red.9">
              {TEXTS.problemsTitle}
            </Text>
            <List size="sm">
              {problems.map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          </Card>
        ) : null}
        <ErrorLine message={save.error ? errorMessage(save.error, { fallback: TEXTS.saveFailed }) : null} />
        <Button type="submit" loading={save.isPending}>
          {TEXTS.save}
        </Button>
        <Button variant="default" onClick={onDone}>
          {TEXTS.cancel}
        </Button>
      </Stack>
    </form>
  );
}
