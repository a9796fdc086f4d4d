import type { DeviceSheet } from '../sheet-types.ts';

/**
 * King Pigeon RTU502x GSM gate openers share one SMS command language; the models differ in how many
 * numbers they hold. Sources and assumptions are listed in the package README.
 */
export function createRtuSheet(model: string, label: string, slotCount: number): DeviceSheet {
  const slotDigits = 3;
  const slotPattern = `\\d{${slotDigits}}`;
  const checkSlot = (value: string): string | null => {
    const slot = Number(value);
    return slot >= 1 && slot <= slotCount
      ? null
      : `Slot must be between 001 and ${String(slotCount).padStart(slotDigits, '0')}.`;
  };
  const slotParam = (key: string, name: string, example: string) => ({
    key,
    name,
    description: `Номер ячейки, три цифры: от 001 до ${String(slotCount).padStart(slotDigits, '0')}`,
    example,
    pattern: slotPattern,
    invalidMessage: 'Slot must be written with three digits, e.g. 001.',
    check: checkSlot,
  });

  return {
    model,
    label,
    slotCount,
    hasPassword: true,
    passwordPattern: /^\d{4}$/,
    supportsTimeWindows: true,
    timeFormat: 'YYMMDDHHmm',
    // The device compares the caller ID it receives; Russian networks present it as 7XXXXXXXXXX.
    formatNumber: (e164) => e164.replace(/^\+/, ''),
    parseNumber: (deviceForm) => (/^7\d{10}$/.test(deviceForm) ? `+${deviceForm}` : null),
    numberPattern: '7\\d{10}',
    formatSlot: (slot) => String(slot).padStart(slotDigits, '0'),
    slotPattern,
    commands: {
      add: '{pwd}A{slot}#{number}#',
      addWindow: '{pwd}A{slot}#{number}#{start}#{end}#',
      delete: '{pwd}A{slot}##',
      setClock: '{pwd}T{time}#',
    },
    replies: {
      add: 'Serial:{slot} Number:{number} Set Success!',
      addWindow: 'Serial:{slot} Number:{number} Time:{start}-{end} Set Success!',
      delete: 'Serial:{slot} Delete Success!',
      setClock: 'Time:{time} Set Success!',
      refused: 'Password Error!',
      rangeLine: 'Serial:{slot} Number:{number}',
      rangeEmpty: 'No Number!',
      emptySlot: 'Empty',
    },
    settings: {
      start: {
        name: 'Начальная настройка',
        description:
          'Записывает в устройство номер его собственной SIM-карты. Отправляется один раз после установки устройства.',
        template: '{pwd}TEL{phone}#',
        params: [
          {
            key: 'phone',
            name: 'Номер SIM-карты устройства',
            description: 'Номер в формате 007XXXXXXXXXX: 00, код страны и номер',
            example: '0079161234567',
            pattern: '007\\d{10}',
            invalidMessage: 'Device number must be written as 007XXXXXXXXXX.',
          },
        ],
        reply: 'TEL:{phone} Set Success!',
        effect: 'device_number',
      },
      change_password: {
        name: 'Смена пароля',
        description:
          'Меняет пароль устройства. Новый пароль сохраняется на сервере, когда устройство подтвердит смену.',
        template: '{pwd}P{new_password}',
        params: [
          {
            key: 'new_password',
            name: 'Новый пароль',
            description: 'Ровно 4 цифры',
            example: '5678',
            pattern: '\\d{4}',
            invalidMessage: 'Device password must be exactly 4 digits.',
          },
        ],
        reply: 'Password:{new_password} Set Success!',
        effect: 'change_password',
      },
      query_slot: {
        name: 'Запрос ячейки',
        description: 'Запрашивает у устройства номер, записанный в ячейку.',
        template: '{pwd}A{slot}?',
        params: [slotParam('slot', 'Ячейка', '001')],
        reply: 'Serial:{slot} Number:{number}',
        effect: 'query_slot',
      },
      query_range: {
        name: 'Запрос диапазона ячеек',
        description: 'Запрашивает у устройства номера, записанные в ячейки с первой по последнюю.',
        template: '{pwd}AL{from}#{to}#',
        params: [slotParam('from', 'Первая ячейка', '001'), slotParam('to', 'Последняя ячейка', '010')],
        reply: '{lines}',
        effect: 'query_range',
        checkAll: (params): Record<string, string> =>
          Number(params.from) > Number(params.to) ? { to: 'The last slot must not precede the first.' } : {},
      },
      access_all: {
        name: 'Доступ для всех',
        description: 'Шлагбаум открывается по звонку с любого номера.',
        template: '{pwd}ALL#',
        params: [],
        reply: 'ALL Set Success!',
        effect: 'allow_all',
      },
      access_authorized: {
        name: 'Доступ только для номеров из списка',
        description: 'Шлагбаум открывается только по звонку с номеров, записанных в устройство.',
        template: '{pwd}AUT#',
        params: [],
        reply: 'AUT Set Success!',
        effect: 'allow_listed',
      },
      relay_time: {
        name: 'Время открытия',
        description: 'Сколько секунд реле остаётся замкнутым после звонка.',
        template: '{pwd}GOT{seconds}#',
        params: [
          {
            key: 'seconds',
            name: 'Секунды',
            description: 'Целое число от 0 до 999',
            example: '030',
            pattern: '\\d{1,3}',
            invalidMessage: 'Relay time must be a whole number of seconds from 0 to 999.',
            // The manual writes the time with three digits.
            normalize: (value) => value.padStart(3, '0'),
          },
        ],
        reply: 'GOT:{seconds} Set Success!',
        effect: 'relay_time',
      },
      messages: {
        name: 'SMS-уведомления',
        description: 'Включает или выключает SMS-уведомления устройства об открытии шлагбаума.',
        template: '{pwd}G{mode}##',
        params: [
          {
            key: 'mode',
            name: 'Режим',
            description: 'ON — включить, OFF — выключить',
            example: 'ON',
            pattern: 'ON|OFF',
            invalidMessage: 'Mode must be ON or OFF.',
          },
        ],
        reply: 'G{mode} Set Success!',
        effect: 'messages',
      },
      open: {
        name: 'Открыть',
        description: 'Открывает шлагбаум: замыкает реле.',
        template: '{pwd}CC',
        params: [],
        reply: 'Relay ON',
        effect: 'open',
      },
      close: {
        name: 'Закрыть',
        description: 'Закрывает шлагбаум: размыкает реле.',
        template: '{pwd}OO',
        params: [],
        reply: 'Relay OFF',
        effect: 'close',
      },
    },
  };
}
