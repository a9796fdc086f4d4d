import type { DeviceSheet, SourcedForm } from '../sheet-types.ts';
import { cite, type SOURCES } from './sources.ts';

/** The role a Callny unit gives the numbers Propusk writes (gate-opener.app: TOP, ADV, NOR). */
interface CallnyRole {
  /** The add's command code: `TEL` writes an admin user, `NORTEL` (G203 only) a normal user. */
  code: 'TEL' | 'NORTEL';
  /** The add's reply as the reference prints it. */
  reply: string;
  /** The reference page of the model, and where on it the add and its reply are. */
  page: keyof typeof SOURCES;
  place: string;
}

/**
 * Callny G202 PLUS and G203 GSM gate openers speak the hash-style language of the RTU5024 hash firmware:
 * `{password}#{COMMAND}#{params}#`, upper case, no spaces (gate-opener.app's blog, "How Callny G202 SMS
 * Commands Work"). Users sit in slots 001–999 and every whitelist command names its slot, and so does its
 * reply: `1234#TEL+31612345678#001#` → "Admin User ID:001, TEL:…"; `1234#TEL#002#` → "User ID:002 deleted";
 * `1234#TEL001?` → "User ID:001, TEL:… (TOP/ADV/NOR)" (gate-opener.app's command list, the only source found:
 * a third party, so every form is theirs, not the maker's).
 *
 * What only a unit can tell, and what the operator must know before handing a unit to Propusk: "First
 * authorized user becomes super admin (TOP)" and "Super admin cannot be deleted" (the same list): on an
 * empty unit the number written first (slot 001) becomes its super admin, so the operator registers his own
 * number first. On a G202 PLUS every number Propusk writes is an admin user (ADV): the list documents normal
 * users (`NORTEL`, "can only call to open, cannot manage users") for the G203 only. The answer to an empty
 * slot, to a wrong password and to a malformed command is not documented: the empty slot's line is the
 * hash-style RTU5024's, marked unverified, and a malformed command is "ignored silently" (the blog).
 */
function createCallnySheet(model: string, label: string, role: CallnyRole): DeviceSheet {
  const slotPattern = '\\d{3}';
  const checkSlot = (value: string): string | null =>
    Number(value) >= 1 && Number(value) <= 999 ? null : 'Ячейка должна быть от 001 до 999.';
  const added: SourcedForm = {
    template: role.reply,
    source: cite(role.page, role.place),
  };
  const line: SourcedForm = {
    template: 'User ID:{slot}, TEL:{number}',
    source: cite(role.page, '"Query user by slot", response "User ID:001, TEL:{phone} (TOP/ADV/NOR)"'),
  };
  const emptyLine: SourcedForm = {
    template: '{slot}:Empty',
    source: `no source shows a Callny's answer for an empty slot; the hash-style RTU5024's: ${cite('rtu5024HashManual', 'p. 7, §6.3, query reply "002: Empty"')}`,
    unverified: true,
  };
  return {
    model,
    label,
    operatorNotes: [
      `on an empty unit the number written first becomes its super admin (TOP), who cannot be deleted (${cite(role.page, 'note "First authorized user becomes super admin (TOP)"; "Delete user by slot": "Super admin cannot be deleted"')}): register your own number in slot 001 before the barrier is handed to Propusk, and keep slot 001 out of residents' reach`,
      role.code === 'TEL'
        ? `every number Propusk writes is an admin user (ADV): the list documents normal users ("can only call to open, cannot manage users") for the G203 only (${cite(role.page, '"Add normal user (specific slot, G203 only)"')})`
        : `numbers are written as normal users, who "can only call to open, cannot manage users" (${cite(role.page, '"Add normal user (specific slot, G203 only)"')})`,
    ],
    slotCount: 999,
    addressing: 'slot',
    hasPassword: true,
    // The unit takes 4–12 letters and digits; Propusk's barrier forms take the 4 digits every other model
    // uses (the factory 1234 among them).
    passwordPattern: /^\d{4}$/,
    passwordHint: 'Пароль устройства — 4 цифры, заводской 1234',
    factoryPassword: {
      value: '1234',
      source: cite(role.page, '"Default password: 1234", "Super admin password default 1234"'),
    },
    capacity: 999,
    capacitySource: cite(role.page, '"Add admin user with specific slot ID (001-999)"'),
    confirmation: 'reply',
    batch: null,
    clockForms: [],
    clockOrder: null,
    supportsTimeWindows: false,
    timeFormat: null,
    numberFormat: '+7',
    numberFormatSource: cite(role.page, 'examples write numbers +31612345678'),
    formatSlot: (slot) => String(slot).padStart(3, '0'),
    slotPattern,
    commands: {
      add: {
        template: `{pwd}#${role.code}{number}#{slot}#`,
        source: cite(role.page, role.place),
      },
      addWindow: null,
      delete: {
        template: '{pwd}#TEL#{slot}#',
        source: cite(role.page, '"Delete user by slot", {pwd}#TEL#{userID}#, example 1234#TEL#002#'),
      },
      setClock: null,
    },
    replies: {
      add: [added],
      addWindow: [],
      delete: [
        {
          template: 'User ID:{slot} deleted',
          source: cite(role.page, '"Delete user by slot", response "User ID:{userID} deleted"'),
        },
      ],
      setClock: [],
      refused: [],
      formatError: [],
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
        source: cite(role.page, '"Query user by slot", {pwd}#TEL{userID}?, example 1234#TEL001?'),
      },
      perSms: 1,
      line: [line],
      empty: [emptyLine],
    },
    settings: {
      query_slot: {
        name: 'Запрос ячейки',
        description: 'Запрашивает у устройства номер, записанный в ячейку.',
        template: '{pwd}#TEL{slot}?',
        source: cite(role.page, '"Query user by slot", example 1234#TEL001?'),
        params: [
          {
            key: 'slot',
            name: 'Ячейка',
            description: 'Номер ячейки, три цифры: от 001 до 999',
            example: '002',
            pattern: slotPattern,
            invalidMessage: 'Ячейка записывается тремя цифрами, например 002.',
            check: checkSlot,
          },
        ],
        replies: [line, emptyLine],
        effect: 'query_slot',
      },
    },
  };
}

/** Callny G202 PLUS: numbers are written as admin users (`#TEL`), the only add its list documents. */
export const callnyG202Sheet = createCallnySheet('CALLNY-G202', 'Callny G202 PLUS', {
  code: 'TEL',
  reply: 'Admin User ID:{slot}, TEL:{number}',
  page: 'callnyG202',
  place:
    '"Add admin user (specific slot)", {pwd}#TEL{phone}#{userID}#, example 1234#TEL+31612345678#001#, response "Admin User ID:{userID}, TEL:{phone}"',
});

/** Callny G203: numbers are written as normal users (`#NORTEL`), who can only call to open. */
export const callnyG203Sheet = createCallnySheet('CALLNY-G203', 'Callny G203', {
  code: 'NORTEL',
  reply: 'Normal User ID:{slot}, TEL:{number}',
  page: 'callnyG203',
  place:
    '"Add normal user (specific slot, G203 only)", {pwd}#NORTEL{phone}#{userID}#, example 1234#NORTEL+31612345678#005#, response "Normal User ID:{userID}, TEL:{phone}"',
});
