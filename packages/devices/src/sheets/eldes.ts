import type { DeviceSheet } from '../sheet-types.ts';
import { cite } from './sources.ts';

/**
 * ELDES ESIM120 (2G) and ESIM320 (3G/2G): a set of up to 2,000 user numbers, added with
 * `ssss_N:44170911XXXX8` (up to 9 numbers in one SMS) and removed with `ssss_D:44170911XXXX8`, numbers in
 * international form without the plus, a 4-digit SMS password. The manuals found print no reply to these
 * commands (the unit's SMS language is configurable, Russian among them) and no SMS that lists the users, so
 * a change can be confirmed neither by a reply nor by a read-back: `confirmation: 'none'`, and the model is
 * not offered for new barriers until the engine can confirm it some other way.
 */
function createEldesSheet(model: string, label: string): DeviceSheet {
  return {
    model,
    label,
    slotCount: 2000,
    addressing: 'number',
    hasPassword: true,
    passwordPattern: /^\d{4}$/,
    passwordHint: 'СМС-пароль устройства — 4 цифры',
    capacity: 2000,
    capacitySource: cite('eldesEsim120', 'p. 44, §6: "The system supports up to 2000 users"'),
    confirmation: 'none',
    batch: {
      add: {
        prefix: '{pwd}_N:',
        item: '{number}:',
        separator: '_',
        suffix: '',
        maxItems: 9,
        maxLength: 160,
        source: cite(
          'eldesEsim120',
          'p. 44, §6: "up to 9 phone numbers per single SMS text message", example 1111_N:44170911XXXX8:John_44170911XXXX9:_44170911XXXX3:Tom (a number with an empty name is written number:)',
        ),
        replies: [],
      },
    },
    clockForms: [],
    clockOrder: null,
    supportsTimeWindows: false,
    timeFormat: null,
    numberFormat: '7',
    numberFormatSource: cite(
      'eldesEsim120',
      'p. 44, §6: "international format without using the "plus" character"',
    ),
    formatSlot: (slot) => String(slot),
    slotPattern: '\\d{1,4}',
    commands: {
      add: {
        template: '{pwd}_N:{number}',
        source: cite('eldesEsim120', 'p. 44, §6, example 2568_N:44170911XXXX8'),
      },
      addWindow: null,
      delete: {
        template: '{pwd}_D:{number}',
        source: cite('eldesEsim120', 'p. 44, §7, example 2568_D:44170911XXXX8'),
      },
      setClock: null,
    },
    replies: {
      add: [],
      addWindow: [],
      delete: [],
      setClock: [],
      refused: [],
      formatError: [],
      genericSuccess: {
        template: 'OK',
        source: 'What the simulator answers to a setting without a documented reply (no source)',
        unverified: true,
      },
    },
    readBack: null,
    settings: {},
  };
}

export const esim120Sheet = createEldesSheet('ESIM120', 'ELDES ESIM120');
export const esim320Sheet = createEldesSheet('ESIM320', 'ELDES ESIM320');
