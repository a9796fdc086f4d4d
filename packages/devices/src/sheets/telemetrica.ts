import type { DeviceSheet } from '../sheet-types.ts';
import { cite } from './sources.ts';

const slotCount = 1000;

const success = {
  template: 'success',
  source: cite('production', 'a reply containing "success" confirmed add and delete'),
};

/**
 * Telemetrica GSM modules: no password, no time windows, and no positions: the device holds a set of
 * numbers, a number is added with `#06#…#` and removed with `#15#…#` by the number itself (the server adds
 * at the start of an interval and deletes at its end). The only public command list found is the T80's,
 * in the `#nn#` style of the SimPal family; the first production deployment used the same delete form.
 * Its `#60#` add form is contradicted by the command list (there `#60#` pairs a slave socket) and is not used.
 */
export const telemetricaSheet: DeviceSheet = {
  model: 'Telemetrica',
  label: 'Telemetrica',
  slotCount,
  addressing: 'number',
  hasPassword: false,
  passwordPattern: null,
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
    },
    addWindow: null,
    delete: {
      template: '#15#{number}#',
      source: `${cite('telemetricaT80', '"#15#номер#" deletes one number')}; ${cite('production', 'delete #15#+7{phone10}#')}`,
    },
    setClock: null,
  },
  replies: {
    add: [success],
    addWindow: [],
    delete: [success],
    setClock: [],
    refused: [],
    formatError: [],
    genericSuccess: success,
  },
  readBack: {
    mode: 'list',
    command: { template: '#06#', source: cite('telemetricaT80', '"#06#" alone lists the extra numbers') },
    perSms: 4,
    line: [{ template: '{number}', source: cite('telemetricaT80', 'the list answers the numbers') }],
    empty: [],
  },
  settings: {
    query_list: {
      name: 'Список номеров',
      description: 'Запрашивает у устройства список записанных в него номеров.',
      template: '#06#',
      source: cite('telemetricaT80', '"#06#" alone lists the extra numbers'),
      params: [],
      replies: [],
      effect: 'query_range',
    },
  },
};
