import type { AlarmSheet, ClockForm, DeviceSheet, SettingParamSheet } from '../sheet-types.ts';
import { cite } from './sources.ts';

/**
 * The clock command's two documented digit orders (issue 30, item 6). The default is `{pwd}T{yyMMddHHmm}#`:
 * a third-party command list gives it, and it is the order the same firmware reads in every window it is
 * sent (`A016#…#1502050800#…`, RTU5025 manual p. 10: 15-02-05 08:00). Code that drives real units sends
 * `{pwd}T{ddMMyyHHmm}` without `#` and reads "Set Time OK" (github.com/idealfit/gsm-relay,
 * `windows-ui/GSMRelayDesktop/ViewModels/MainViewModel.cs`, SetupRelayAsync): a barrier whose unit keeps the
 * wrong time with the default chooses it in its device profile. Most ddMMyy strings are valid yyMMdd dates
 * too, so the reply cannot tell which order the unit read: only the unit can (issue 42).
 */
export const RTU_CLOCK_FORMS: ClockForm[] = [
  {
    order: 'yyMMddHHmm',
    command: {
      template: '{pwd}T{time}#',
      source: `${cite('gateOpenerCommands', '"Sync clock", {pwd}T{YYMMDDHHmm}#, example 1234T2603291530#')}; the window order of ${cite('rtu5025Manual', 'p. 10, §6.2.0, 1502050800 = 15-02-05 08:00')}`,
    },
    replies: [
      { template: 'Set Time OK', source: cite('gateOpenerCommands', '"Sync clock" response "Set Time OK!"') },
    ],
  },
  {
    order: 'ddMMyyHHmm',
    command: {
      template: '{pwd}T{time}',
      source: cite(
        'idealfitGsmRelay',
        'SetupRelayAsync sends T + ddMMyyHHmm without # and reads "Set Time OK"',
      ),
      unverified: true,
    },
    replies: [
      {
        template: 'Set Time OK',
        source: `${cite('idealfitGsmRelay', 'SetupRelayAsync expects "Set Time OK"')}; ${cite('gateOpenerCommands', '"Sync clock" response, given for the other order')}`,
        unverified: true,
      },
    ],
  },
];

/**
 * The unit's unasked SMS (issue 30 item 5). Who gets them is documented: "The 1st~6th position number should
 * be Mobile number because of the alarm message will send to these 6 numbers, and the power failure alarm SMS
 * send to the 1st postion number only" (RTU5025 manual p. 10, §6.2.0 note 3). Their TEXT is not: no stored
 * manual page of the RTU502x family, the RTU5024 or the G200 quotes it, and no command that sets it was found
 * (docs/decisions/0025, "Power alarms"). So the forms are recognised by the words any wording must carry —
 * "power" with a word of loss, or "power" with a word of return — the way King Pigeon words mains state
 * elsewhere ("External Power Goes OFF/ON", RTU5020 manual p. 8) and other GSM units word these alarms
 * ("Power failed." / "Power restored.", IQSD-GSM manual p. 17). All unverified on a unit.
 */
export const RTU_ALARMS: AlarmSheet = {
  alarmSlots: 6,
  powerSlot: 1,
  recipientsSource: cite('rtu5025Manual', 'p. 10, §6.2.0 note 3'),
  forms: [
    {
      kind: 'power_failure',
      pattern: /\bpower\b[^\n]*\b(?:fail(?:ed|ure)?|lost|loss|off|down|cut|outage)\b/i,
      example: 'Power failure',
      source: `no source quotes the text; the recipient: ${cite('rtu5025Manual', 'p. 10, §6.2.0 note 3')}; wording as ${cite('rtu5020Manual', 'p. 8, "External Power Goes OFF/ON"')} and ${cite('iqsdGsmManual', 'p. 17, "Power failed."')}`,
      unverified: true,
    },
    {
      kind: 'power_restored',
      pattern: /\bpower\b[^\n]*\b(?:restored?|recover(?:ed|y)?|back|on|up|normal)\b/i,
      example: 'Power recovery',
      source: `no source quotes the text; wording as ${cite('rtu5020Manual', 'p. 8, "External Power Goes OFF/ON"')} and ${cite('iqsdGsmManual', 'p. 17, "Power restored."')}`,
      unverified: true,
    },
    {
      kind: 'alarm',
      pattern: /\balarm\b/i,
      example: 'Alarm',
      source: `no source quotes the text; that alarms go to slots 1–6: ${cite('rtu5025Manual', 'p. 10, §6.2.0 note 3')}`,
      unverified: true,
    },
  ],
};

export interface RtuSheetOptions {
  /** Highest relay time the model accepts (`GOT`), in seconds. */
  maxRelaySeconds?: number;
  relayTimeSource?: string;
  capacitySource: string;
  /** A clone's own manual: cited next to the King Pigeon source of each form it repeats. */
  cloneSource?: string;
  /** The firmware from which the unit takes a number's time window (`minFirmware` of the windowed add). */
  windowsFromFirmware?: { version: string; source: string };
}

/**
 * King Pigeon RTU502x GSM gate openers (and the RTU5024 sold with the same firmware) share one SMS command
 * language: the password, a command code, `#`-separated fields. The models differ in how many numbers they
 * hold. Every form below names its source; where sources disagree the reasoning is in
 * docs/decisions/0006-device-sheets.md.
 */
export function createRtuSheet(
  model: string,
  label: string,
  slotCount: number,
  options: RtuSheetOptions,
): DeviceSheet {
  const maxRelay = options.maxRelaySeconds ?? 999;
  const also = (source: string) => (options.cloneSource ? `${source}; ${options.cloneSource}` : source);
  const slotDigits = 3;
  const slotPattern = `\\d{${slotDigits}}`;
  const lastSlot = String(slotCount).padStart(slotDigits, '0');
  const checkSlot = (value: string): string | null => {
    const slot = Number(value);
    return slot >= 1 && slot <= slotCount ? null : `Ячейка должна быть от 001 до ${lastSlot}.`;
  };
  const slotParam = (key: string, name: string, example: string): SettingParamSheet => ({
    key,
    name,
    description: `Номер ячейки, три цифры: от 001 до ${lastSlot}`,
    example,
    pattern: slotPattern,
    invalidMessage: 'Ячейка записывается тремя цифрами, например 001.',
    check: checkSlot,
  });
  // Replies of the slot table: the production units answered an add with `NNN:number` and a delete with
  // `NNN:Empty`; the RTU5024 manual shows the same lines for a query (`001:0044…`, `002: Empty`).
  const slotLine = {
    template: '{slot}:{number}',
    source: `${cite('production', 'add confirmed by ^\\d{3}:\\d{11}')}; ${cite('rtu5024HashManual', 'p. 7, §6.3 reply "001:004413500001111"')}`,
  };
  const emptyLine = {
    template: '{slot}:Empty',
    source: `${cite('production', 'delete confirmed by ^\\d{3}:Empty')}; ${cite('rtu5024HashManual', 'p. 7, §6.3 reply "002: Empty"')}`,
  };

  return {
    model,
    label,
    slotCount,
    addressing: 'slot',
    hasPassword: true,
    passwordPattern: /^\d{4}$/,
    passwordHint: 'Пароль устройства — 4 цифры, заводской 1234',
    factoryPassword: {
      value: '1234',
      source: also(
        `${cite('rtu5025Manual', 'p. 10, §6.1, every example starts from the password 1234: 1234P6666')}; ${cite('gateOpenerDefaultPassword', '"After a factory reset the password also reverts to 1234"')}`,
      ),
    },
    capacity: slotCount,
    capacitySource: options.capacitySource,
    confirmation: 'reply',
    batch: null,
    clockForms: RTU_CLOCK_FORMS,
    clockOrder: 'yyMMddHHmm',
    supportsTimeWindows: true,
    timeFormat: 'YYMMDDHHmm',
    numberFormat: '0007',
    numberFormatSource: `${cite('production', 'example 1234A003#00079854500040#')}; the manuals ask for 00 + country code (${cite('rtu5023Manual', 'p. 8, note 6: "setup as 008613600000000 or +8613600000000"')})`,
    formatSlot: (slot) => String(slot).padStart(slotDigits, '0'),
    slotPattern,
    commands: {
      add: {
        template: '{pwd}A{slot}#{number}#',
        source: also(cite('rtu5025Manual', 'p. 10, §6.2.0, example 1234A003#123456#')),
      },
      addWindow: {
        template: '{pwd}A{slot}#{number}#{start}#{end}#',
        source: options.windowsFromFirmware
          ? `${cite('rtu5025Manual', 'p. 10, §6.2.0, example 1234A016#123456#1502050800#1502051000#')}; only from firmware ${options.windowsFromFirmware.version}: ${options.windowsFromFirmware.source}`
          : cite('rtu5025Manual', 'p. 10, §6.2.0, example 1234A016#123456#1502050800#1502051000#'),
        ...(options.windowsFromFirmware ? { minFirmware: options.windowsFromFirmware.version } : {}),
      },
      delete: {
        template: '{pwd}A{slot}##',
        source: also(
          `${cite('rtu5025Manual', 'p. 10–11, §6.2.3')}; ${cite('rtu5034Manual', 'p. 8, §5.2.3, example 1234A002##')}`,
        ),
      },
      setClock: RTU_CLOCK_FORMS[0]!.command,
    },
    replies: {
      add: [slotLine],
      addWindow: [slotLine],
      delete: [emptyLine],
      setClock: RTU_CLOCK_FORMS[0]!.replies,
      refused: [
        {
          template: 'Error password',
          source: `${cite('gateOpenerBlog', 'introduction: the module answered "Error password"')}; the manual says a wrong password gets no reply at all (${cite('rtu5023Manual', 'p. 8, note 7')})`,
        },
        {
          template: 'Password Error',
          source: `${cite('issue42', '"Password Error" on another third-party page')}; the manual says a wrong password gets no reply at all (${cite('rtu5023Manual', 'p. 8, note 7')})`,
          unverified: true,
        },
      ],
      formatError: [
        {
          template: 'SMS Format Error, Please check Caps Lock in Command!',
          source: cite('rtu5023Manual', 'p. 8, note 7'),
        },
        {
          template: 'SMS Format Error',
          source: cite('rtu5023Manual', 'p. 8, note 7 (the first words, in case a unit shortens it)'),
        },
        {
          template: 'Command error',
          source: cite('rtu5024HashManual', 'p. 7, note 11: "Command error, please resend command"'),
        },
      ],
      genericSuccess: {
        template: 'Set Success!',
        source: cite('gateOpenerCommands', '"Initialize" response'),
      },
    },
    readBack: {
      mode: 'range',
      command: {
        template: '{pwd}AL{from}#{to}#',
        source: cite('rtu5025Manual', 'p. 10, §6.2.2, example 1234AL002#050#, "10 numbers on each SMS"'),
      },
      perSms: 10,
      line: [slotLine],
      empty: [emptyLine],
    },
    settings: {
      start: {
        name: 'Начальная настройка',
        description:
          'Записывает в устройство номер его собственной сим-карты. Отправляется один раз после установки устройства.',
        template: '{pwd}TEL{phone}#',
        source: `${cite('rtu5023Manual', 'p. 8, §1, example 1234TEL008613570810254#')}; ${cite('production', 'setup command {pwd}TEL0007{phone10}')}`,
        params: [
          {
            key: 'phone',
            name: 'Номер сим-карты устройства',
            description: 'Номер: 007 или 0007 и 10 цифр номера',
            example: '0079161234567',
            pattern: '0{2,3}7\\d{10}',
            invalidMessage: 'Номер сим-карты записывается как 007 или 0007 и 10 цифр номера.',
          },
        ],
        replies: [{ template: 'Set Success', source: cite('gateOpenerCommands', '"Initialize" response') }],
        effect: 'device_number',
      },
      change_password: {
        name: 'Смена пароля',
        description:
          'Меняет пароль устройства. Новый пароль сохраняется на сервере, когда устройство подтвердит смену.',
        template: '{pwd}P{new_password}',
        source: cite('rtu5025Manual', 'p. 10, §6.1, example 1234P6666'),
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
            template: 'Password changed to {new_password}, please remember it carefully.',
            source: `${cite('rtu5025Manual', 'p. 10, §6.1')}; ${cite('gateOpenerCommands', '"Change password" response')}`,
          },
          {
            template: 'Password changed to "{new_password}"',
            source: cite('rtu5025Manual', 'p. 10, §6.1 (the text as printed, with quotes)'),
          },
        ],
        effect: 'change_password',
      },
      query_slot: {
        name: 'Запрос ячейки',
        description: 'Запрашивает у устройства номер, записанный в ячейку.',
        template: '{pwd}A{slot}#',
        source: cite('rtu5025Manual', 'p. 10, §6.2.1, example 1234A002#'),
        params: [slotParam('slot', 'Ячейка', '001')],
        replies: [slotLine, emptyLine],
        effect: 'query_slot',
      },
      query_range: {
        name: 'Запрос диапазона ячеек',
        description: 'Запрашивает у устройства номера, записанные в ячейки с первой по последнюю.',
        template: '{pwd}AL{from}#{to}#',
        source: cite('rtu5025Manual', 'p. 10, §6.2.2, example 1234AL002#050#'),
        params: [slotParam('from', 'Первая ячейка', '001'), slotParam('to', 'Последняя ячейка', '010')],
        replies: [slotLine, emptyLine],
        effect: 'query_range',
        checkAll: (params): Record<string, string> =>
          Number(params.from) > Number(params.to)
            ? { to: 'Последняя ячейка не может быть раньше первой.' }
            : {},
      },
      access_all: {
        name: 'Доступ для всех',
        description: 'Шлагбаум открывается по звонку с любого номера.',
        template: '{pwd}ALL#',
        source: cite('rtu5025Manual', 'p. 11, §6.3.1'),
        params: [],
        replies: [],
        effect: 'allow_all',
      },
      access_authorized: {
        name: 'Доступ только для номеров из списка',
        description: 'Шлагбаум открывается только по звонку с номеров, записанных в устройство.',
        template: '{pwd}AUT#',
        source: cite('rtu5025Manual', 'p. 11, §6.3.2 (the default)'),
        params: [],
        replies: [],
        effect: 'allow_listed',
      },
      relay_time: {
        name: 'Время открытия',
        description:
          maxRelay === 999
            ? 'Сколько секунд реле остаётся замкнутым после звонка: 000 — импульс 0,5 секунды, 999 — реле не выключается до следующего звонка.'
            : `Сколько секунд реле остаётся замкнутым после звонка: от 000 до ${maxRelay}.`,
        template: '{pwd}GOT{seconds}#',
        source: options.relayTimeSource ?? cite('rtu5025Manual', 'p. 11, §6.3.3, example 1234GOT030#'),
        params: [
          {
            key: 'seconds',
            name: 'Секунды',
            description: `Целое число от 0 до ${maxRelay}`,
            example: '030',
            pattern: '\\d{1,3}',
            invalidMessage: `Время открытия — целое число секунд от 0 до ${maxRelay}.`,
            check: (value) =>
              Number(value) <= maxRelay ? null : `Время открытия — целое число секунд от 0 до ${maxRelay}.`,
            // The manual writes the time with three digits.
            normalize: (value) => value.padStart(3, '0'),
          },
        ],
        replies: [],
        effect: 'relay_time',
      },
      messages: {
        name: 'Отключение СМС об открытии и закрытии',
        description:
          'Устройство перестаёт присылать СМС, когда реле включается (при открытии) или выключается (при закрытии).',
        template: '{pwd}G{mode}##',
        source: cite('rtu5025Manual', 'p. 11, §6.3.5, forms pwdGON## and pwdGOFF##'),
        params: [
          {
            key: 'mode',
            name: 'Событие',
            description: 'Открытие или закрытие',
            example: 'ON',
            pattern: 'ON|OFF',
            invalidMessage: 'Выберите событие: открытие или закрытие.',
            // The manual's ON (the relay switches on: the gate opens) and OFF (it switches off: it closes).
            choices: [
              { value: 'ON', label: 'При открытии' },
              { value: 'OFF', label: 'При закрытии' },
            ],
          },
        ],
        replies: [],
        effect: 'messages',
      },
      open: {
        name: 'Открыть',
        description: 'Открывает шлагбаум: включает реле на время открытия.',
        template: '{pwd}CC',
        source: `${cite('rtu5025Manual', 'p. 11, §6.3.6 "Control the relay ON/OFF by SMS command", "The relay close timer according to the before setting 6.3.3" (CC closes the relay for the relay time: the model\'s pulse)')}; verified in the stored manual page for issue 16`,
        params: [],
        replies: [
          { template: 'Relay ON', source: cite('rtu5025Manual', 'p. 11, §6.3.6 "Return SMS: Relay ON"') },
        ],
        effect: 'open',
      },
      close: {
        name: 'Закрыть',
        description: 'Закрывает шлагбаум: выключает реле.',
        template: '{pwd}DD',
        source: `${cite('rtu5025Manual', 'p. 11, §6.3.6 "Return SMS: Relay OFF"')}; the hash-style firmware's #OFF# is another dialect (${cite('rtu5024HashManual', 'p. 7')})`,
        params: [],
        replies: [
          { template: 'Relay OFF', source: cite('rtu5025Manual', 'p. 11, §6.3.6 "Return SMS: Relay OFF"') },
        ],
        effect: 'close',
      },
    },
    alarms: RTU_ALARMS,
  };
}
