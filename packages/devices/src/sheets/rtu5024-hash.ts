import type { DeviceSheet } from '../sheet-types.ts';
import { cite } from './sources.ts';

const slotLine = {
  template: '{slot}:{number}',
  source: cite('rtu5024HashManual', 'p. 7, §6.3, query reply "001:004413500001111"'),
};
const emptyLine = {
  template: '{slot}:Empty',
  source: cite('rtu5024HashManual', 'p. 7, §6.3, query reply "002: Empty"'),
};

/**
 * RTU5024/RTU5035 units with the hash-style firmware ("dialect B"): `1234#TEL004413500001111#001#` writes
 * slot 001 (001–200), `1234#TEL002?` reads a slot. The manual says the unit answers an add ("After the
 * RTU5024 received, … will return:") but the stored page has lost the text that followed, and it shows no
 * reply to a delete; so a change is confirmed by reading its slot back (`confirmation: 'read_back'`), never by a reply: the engine
 * sends the change and right after it `{pwd}#TEL{slot}?`, and confirms the change only when the answer shows
 * the slot holding what the change wrote (`002: Empty` for a delete); an answer that shows otherwise, or none,
 * sends the change and its read again (two SMS a change, counted so by every estimate). Its delete
 * form is documented only for the Callny G202, which speaks the same language. Relay settings are left out
 * on purpose: here `GOT0` keeps the relay on, where dialect A's `000` is a pulse (issue 16).
 */
export const rtu5024HashSheet: DeviceSheet = {
  model: 'RTU5024-HASH',
  label: 'RTU5024/RTU5035 (команды с #TEL)',
  slotCount: 200,
  addressing: 'slot',
  hasPassword: true,
  passwordPattern: /^\d{4}$/,
  passwordHint: 'Пароль устройства — 4 цифры, заводской 1234',
  factoryPassword: {
    value: '1234',
    source: `${cite('rtu5024HashManual', 'p. 7, §6.1, "the original password is 1234"')}; ${cite('gateOpenerDefaultPassword', '"After a factory reset the password also reverts to 1234"')}`,
  },
  capacity: 200,
  capacitySource: cite('rtu5024HashManual', 'p. 7, slots "from 001~200"'),
  confirmation: 'read_back',
  batch: null,
  clockForms: [],
  clockOrder: null,
  supportsTimeWindows: false,
  timeFormat: null,
  numberFormat: '007',
  numberFormatSource: cite(
    'rtu5024HashManual',
    'p. 7, example 1234#TEL004413500001111#001# (00 + country code)',
  ),
  formatSlot: (slot) => String(slot).padStart(3, '0'),
  slotPattern: '\\d{3}',
  commands: {
    add: {
      template: '{pwd}#TEL{number}#{slot}#',
      source: cite('rtu5024HashManual', 'p. 7, example 1234#TEL004413500001111#001#'),
    },
    addWindow: null,
    delete: {
      template: '{pwd}#TEL#{slot}#',
      source: cite('callnyG202', '"Delete user by slot", {pwd}#TEL#{userID}#, example 1234#TEL#002#'),
      unverified: true,
    },
    setClock: null,
  },
  // The add's reply text is lost and no delete reply is documented: the engine reads the slot back.
  lostReplies: {
    add: cite(
      'rtu5024HashManual',
      'p. 7, §6.2: "After the RTU5024 received, … will return:", the text that followed is lost',
    ),
  },
  replies: {
    add: [],
    addWindow: [],
    delete: [],
    setClock: [],
    refused: [],
    formatError: [
      {
        template: 'Command error',
        source: cite('rtu5024HashManual', 'p. 7, note 11: "Command error, please resend command"'),
      },
    ],
    genericSuccess: {
      template: 'OK',
      source: 'What the simulator answers to a setting without a documented reply (no source)',
      unverified: true,
    },
  },
  readBack: {
    mode: 'slot',
    command: {
      template: '{pwd}#TEL{slot}?',
      source: cite('rtu5024HashManual', 'p. 7, example 1234#TEL002?'),
    },
    perSms: 1,
    line: [slotLine],
    empty: [emptyLine],
  },
  settings: {
    change_password: {
      name: 'Смена пароля',
      description:
        'Меняет пароль устройства. Новый пароль сохраняется на сервере, когда устройство подтвердит смену.',
      template: '{pwd}#PWD{new_password}#PWD{new_password}#',
      source: cite('rtu5024HashManual', 'p. 7, example 1234#PWD6666#PWD6666#'),
      params: [
        {
          key: 'new_password',
          name: 'Новый пароль',
          description: 'Ровно 4 цифры',
          example: '5678',
          pattern: '\\d{4}',
          invalidMessage: 'Пароль устройства — ровно 4 цифры.',
        },
      ],
      replies: [
        {
          template: 'New Password:{new_password}',
          source: cite('rtu5024HashManual', 'p. 7, reply "New Password:xxxx"'),
        },
      ],
      effect: 'change_password',
    },
    query_slot: {
      name: 'Запрос ячейки',
      description: 'Запрашивает у устройства номер, записанный в ячейку.',
      template: '{pwd}#TEL{slot}?',
      source: cite('rtu5024HashManual', 'p. 7, example 1234#TEL002?'),
      params: [
        {
          key: 'slot',
          name: 'Ячейка',
          description: 'Номер ячейки, три цифры: от 001 до 200',
          example: '001',
          pattern: '\\d{3}',
          invalidMessage: 'Ячейка записывается тремя цифрами, например 001.',
          check: (value) =>
            Number(value) >= 1 && Number(value) <= 200 ? null : 'Ячейка должна быть от 001 до 200.',
        },
      ],
      replies: [slotLine, emptyLine],
      effect: 'query_slot',
    },
  },
};
