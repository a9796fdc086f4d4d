import type { DeviceSheet, SettingSheet } from '../sheet-types.ts';

const slotCount = 1000;

const slotParam = {
  key: 'slot',
  name: 'Ячейка',
  description: `Номер ячейки: от 1 до ${slotCount}`,
  example: '1',
  pattern: '\\d{1,4}',
  invalidMessage: `Slot must be a number from 1 to ${slotCount}.`,
  check: (value: string) => {
    const slot = Number(value);
    return slot >= 1 && slot <= slotCount ? null : `Slot must be a number from 1 to ${slotCount}.`;
  },
  normalize: (value: string) => String(Number(value)),
};

const settings: Record<string, SettingSheet> = {
  query_slot: {
    name: 'Запрос ячейки',
    description: 'Запрашивает у устройства номер, записанный в ячейку.',
    template: 'GET {slot}',
    params: [slotParam],
    reply: 'SLOT {slot} {number}',
    effect: 'query_slot',
  },
  access_all: {
    name: 'Доступ для всех',
    description: 'Шлагбаум открывается по звонку с любого номера.',
    template: 'MODE ALL',
    params: [],
    reply: 'OK MODE ALL',
    effect: 'allow_all',
  },
  access_authorized: {
    name: 'Доступ только для номеров из списка',
    description: 'Шлагбаум открывается только по звонку с номеров, записанных в устройство.',
    template: 'MODE LIST',
    params: [],
    reply: 'OK MODE LIST',
    effect: 'allow_listed',
  },
  relay_time: {
    name: 'Время открытия',
    description: 'Сколько секунд реле остаётся замкнутым после звонка.',
    template: 'RELAY {seconds}',
    params: [
      {
        key: 'seconds',
        name: 'Секунды',
        description: 'Целое число от 0 до 999',
        example: '5',
        pattern: '\\d{1,3}',
        invalidMessage: 'Relay time must be a whole number of seconds from 0 to 999.',
        normalize: (value) => String(Number(value)),
      },
    ],
    reply: 'OK RELAY {seconds}',
    effect: 'relay_time',
  },
  open: {
    name: 'Открыть',
    description: 'Открывает шлагбаум.',
    template: 'OPEN',
    params: [],
    reply: 'OK OPEN',
    effect: 'open',
  },
  close: {
    name: 'Закрыть',
    description: 'Закрывает шлагбаум.',
    template: 'CLOSE',
    params: [],
    reply: 'OK CLOSE',
    effect: 'close',
  },
};

/**
 * Telemetrica: no password and no time windows (the server adds at the start of an interval and deletes at
 * its end). The command forms are this project's assumption, see the README.
 */
export const telemetricaSheet: DeviceSheet = {
  model: 'Telemetrica',
  label: 'Telemetrica',
  slotCount,
  hasPassword: false,
  passwordPattern: null,
  supportsTimeWindows: false,
  timeFormat: null,
  formatNumber: (e164) => e164,
  parseNumber: (deviceForm) => (/^\+7\d{10}$/.test(deviceForm) ? deviceForm : null),
  numberPattern: '\\+7\\d{10}',
  formatSlot: (slot) => String(slot),
  slotPattern: '\\d{1,4}',
  commands: {
    add: 'ADD {slot} {number}',
    addWindow: null,
    delete: 'DEL {slot}',
    setClock: null,
  },
  replies: {
    add: 'OK ADD {slot} {number}',
    addWindow: null,
    delete: 'OK DEL {slot}',
    setClock: null,
    refused: null,
    rangeLine: '{slot} {number}',
    rangeEmpty: 'EMPTY',
    emptySlot: 'EMPTY',
  },
  settings,
};
