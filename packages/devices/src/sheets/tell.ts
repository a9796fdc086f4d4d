import type { DeviceSheet } from '../sheet-types.ts';
import { cite } from './sources.ts';

const added = {
  template: '{count} user(s) added',
  source: cite('tellGc20Quick', 'p. 7, reply "3 user(s) added" = "3 phone numbers added successfully"'),
};

/**
 * TELL GSM Gate Control 20 ("2.0"): up to 20 user numbers (manual v1.1, §1), commands `KEY=value#` after
 * `PWD={password}#`, several in one SMS (quick guide p. 7: `PWD=1111#TEL=+36301111111#TEL=+36202222222#…`),
 * numbers with `+` and the country code. Replies (quick guide p. 7): "3 user(s) added", "User removed",
 * "User not found to delete", "Wrong password", "CMD error", "Empty phonebook". The delete and list forms
 * (`DEL={number}#`, `TEL?#`) are issue 30's reading of the same guide; the layout of a non-empty list reply is
 * not documented.
 */
export const tellGateControlSheet: DeviceSheet = {
  model: 'TELL-GC20',
  label: 'TELL Gate Control 2.0',
  slotCount: 20,
  addressing: 'number',
  hasPassword: true,
  passwordPattern: /^\d{4}$/,
  passwordHint: 'Пароль устройства — 4 цифры (в руководстве 1111)',
  capacity: 20,
  capacitySource: cite('tellGc20Manual', '§1 "Possibility to register up to 20 users"'),
  confirmation: 'reply',
  // Its delete answers name nothing: a delete is confirmed by reading the list back (sheet-types.ts).
  confirmDeletesByRead: true,
  batch: {
    add: {
      prefix: 'PWD={pwd}#',
      item: 'TEL={number}#',
      separator: '',
      suffix: '',
      maxItems: 20,
      maxLength: 160,
      source: cite(
        'tellGc20Quick',
        'p. 7, example PWD=1111#TEL=+36301111111#TEL=+36202222222#REL1=3#REL2=FIX#',
      ),
      replies: [added],
    },
  },
  clockForms: [],
  clockOrder: null,
  supportsTimeWindows: false,
  timeFormat: null,
  numberFormat: '+7',
  numberFormatSource: cite('tellGc20Quick', 'p. 7, numbers written +36301111111'),
  formatSlot: (slot) => String(slot),
  slotPattern: '\\d{1,2}',
  commands: {
    add: {
      template: 'PWD={pwd}#TEL={number}#',
      source: cite('tellGc20Quick', 'p. 7, PWD=1111#TEL=+36301111111#'),
    },
    addWindow: null,
    delete: {
      template: 'PWD={pwd}#DEL={number}#',
      source: cite('issue30', 'TELL Gate Control 2.0 DEL={number}#, after PWD=1111# as every command'),
      unverified: true,
    },
    setClock: null,
  },
  replies: {
    add: [added],
    addWindow: [],
    // "User not found to delete": the number is not on the unit, which is what the delete wanted.
    delete: [
      { template: 'User removed', source: cite('tellGc20Quick', 'p. 7, reply "User removed"') },
      {
        template: 'User not found to delete',
        source: cite('tellGc20Quick', 'p. 7, reply "User not found to delete"'),
      },
    ],
    setClock: [],
    refused: [{ template: 'Wrong password', source: cite('tellGc20Quick', 'p. 7, reply "Wrong password"') }],
    formatError: [{ template: 'CMD error', source: cite('tellGc20Quick', 'p. 7, reply "CMD error"') }],
    genericSuccess: {
      template: 'OK',
      source: 'What the simulator answers to a setting without a documented reply (no source)',
      unverified: true,
    },
  },
  readBack: {
    mode: 'list',
    command: {
      template: 'PWD={pwd}#TEL?#',
      source: cite('issue30', 'TELL Gate Control 2.0 TEL?#'),
      unverified: true,
    },
    perSms: 20,
    line: [
      {
        template: '{number}',
        source: 'The numbers of the list reply; its layout is not documented',
        unverified: true,
      },
    ],
    empty: [],
    emptyList: [
      { template: 'Empty phonebook', source: cite('tellGc20Quick', 'p. 7, reply "Empty phonebook"') },
    ],
  },
  settings: {
    query_list: {
      name: 'Список номеров',
      description: 'Запрашивает у устройства список записанных в него номеров.',
      template: 'PWD={pwd}#TEL?#',
      source: cite('issue30', 'TELL Gate Control 2.0 TEL?#'),
      unverified: true,
      params: [],
      replies: [],
      effect: 'query_range',
    },
  },
};
