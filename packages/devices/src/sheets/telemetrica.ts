import type { DeviceSheet } from '../sheet-types.ts';
import { cite } from './sources.ts';

/** The server's own numbering of the numbers it files (the device has no positions). */
const slotCount = 1000;

const success = {
  template: 'success',
  source: cite('production', 'a reply containing "success" confirmed add and delete'),
  unverified: true,
};

/**
 * Telemetrica GSM modules: no password, no time windows, and no positions: the device holds a set of
 * numbers, a number is added with `#06#…#` and removed with `#15#…#` by the number itself (the server adds
 * at the start of an interval and deletes at its end). The only public command list found is the T80
 * socket's, in the `#nn#` style of the SimPal family; the first production deployment used the same delete
 * form. Its `#60#` add form is contradicted by the command list (there `#60#` pairs a slave socket) and is
 * not used. Nothing here was seen on a Telemetrica gate module: every form is marked unverified, and the
 * capacity is the few numbers the command list and the SimPal family show, not the 1,000 the sheet once said.
 */
export const telemetricaSheet: DeviceSheet = {
  model: 'Telemetrica',
  label: 'Telemetrica',
  slotCount,
  addressing: 'number',
  hasPassword: false,
  passwordPattern: null,
  passwordHint: null,
  capacity: 4,
  capacitySource: `${cite('telemetricaT80', '"#06#" adds extra numbers, up to 4 in one SMS; no larger list is documented')}; SimPal-family modules hold a few numbers (${cite('simpalT40', 'p. 10')}); unverified on a gate module`,
  confirmation: 'reply',
  // Its answers name nothing, but a delete is not confirmed by reading the list back: the answer of a unit
  // holding no number is not documented, and the engine would take a late "success" for it (0025, "Deletes
  // read back"). The debt rule (reply-choice.ts) guards its deletes.
  batch: {
    add: {
      prefix: '#06#',
      item: '{number}',
      separator: '#',
      suffix: '#',
      maxItems: 4,
      maxLength: 160,
      source: `${cite('telemetricaT80', '"#06#номер#" with up to 4 numbers')}; ${cite('production', 'setting #06#+7{phone_one}#{phone_two}#{phone_three}#')}`,
      replies: [success],
      unverified: true,
    },
  },
  clockForms: [],
  clockOrder: null,
  supportsTimeWindows: false,
  timeFormat: null,
  numberFormat: '+7',
  numberFormatSource: cite('production', 'commands #15#+7{phone10}# and #06#+7{phone}#'),
  formatSlot: (slot) => String(slot),
  slotPattern: '\\d{1,4}',
  commands: {
    add: {
      template: '#06#{number}#',
      source: `${cite('telemetricaT80', '"#06#номер#" adds an extra number')}; ${cite('simpalT40', 'p. 10')}`,
      unverified: true,
    },
    addWindow: null,
    delete: {
      template: '#15#{number}#',
      source: `${cite('telemetricaT80', '"#15#номер#" deletes one number')}; ${cite('production', 'delete #15#+7{phone10}#')}`,
      unverified: true,
    },
    setClock: null,
  },
  replies: {
    add: [success],
    addWindow: [],
    // A SimPal-family unit answers a delete without the word "success": both forms confirm it.
    delete: [
      success,
      {
        template: 'Family number has been deleted',
        source: cite('simpalFamily', 'the reply to #15#{number}#'),
        unverified: true,
      },
    ],
    setClock: [],
    refused: [],
    formatError: [],
    genericSuccess: success,
  },
  readBack: {
    mode: 'list',
    command: {
      template: '#06#',
      source: cite('telemetricaT80', '"#06#" alone lists the extra numbers'),
      unverified: true,
    },
    perSms: 4,
    line: [
      {
        template: '{number}',
        source: cite('telemetricaT80', 'the list answers the numbers (their layout is not documented)'),
        unverified: true,
      },
    ],
    empty: [],
  },
  settings: {
    query_list: {
      name: 'Список номеров',
      description: 'Запрашивает у устройства список записанных в него номеров.',
      template: '#06#',
      source: cite('telemetricaT80', '"#06#" alone lists the extra numbers'),
      unverified: true,
      params: [],
      replies: [],
      effect: 'query_range',
    },
  },
};
