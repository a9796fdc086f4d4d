import type { DeviceSheet, SourcedForm } from '../sheet-types.ts';
import { cite } from './sources.ts';

const P49 = 'p. 49, §6 "Configuring the Gate Control BASE by SMS"';
const P50 = 'p. 50, §6.1 "Registering a new user"';

const syntaxError: SourcedForm = {
  template: 'SYNTAX ERROR!',
  source: cite(
    'tellBase1000Manual',
    `${P50}, reply "SYNTAX ERROR!" = "Wrong command (* or # is missing, or other typing error)"`,
  ),
};

/**
 * TELL Gate Control BASE 1000 (device version v10.00), by SMS (its manual §6, pp. 49–50). Commands are taken
 * from the super admins and admins registered in the unit, by their phone number: there is no SMS password,
 * so the unit must hold the SIM number Propusk sends from as an admin (registered once by the installer, e.g.
 * with `*SUPERADMIN#` from that number, or in the maker's program) — only a unit can tell that it answers.
 * "Each command must begin with the star character and must end with the hash # character", several commands
 * may share an SMS of at most 60 characters, and "the device will send a confirmation about processed
 * commands only" (p. 49). (The stored copy of the manual has lost the star glyph from every example; its words
 * keep it.)
 *
 * Add: `*n=PHONE NUMBER,NAME,ROLE,ENTRY PERIOD,OUTPUT#` (p. 50, example `n=+36301234567,John Smith,A,N,B#`):
 * ROLE `U` (user), ENTRY PERIOD `N` (0–24: a resident is let in at any hour, not only in the unit's permitted
 * entry period `EP=FROM,TO#`), OUTPUT `1` (OUT1; "MISSING PARAMETER" when absent in control modes 1 and 2).
 * The NAME is the number itself: Propusk sends no person's name to a unit, and names are unique in the unit
 * ("ERROR: USERNAME ALREADY REGISTERED!"); whether the unit takes `+` in a name no source says, so the add is
 * marked unverified. Delete: `*d=PHONE NUMBER#` (p. 49's table). The delete's reply is on a page this project
 * could not read, so its form here is unverified: a conformance run learns the unit's own text. No SMS
 * command that lists the users was found (p. 49's table as stored ends before its last rows): a change is
 * confirmed by its reply alone, and its replies name nothing, so a late answer can confirm the wrong change
 * (docs/decisions/0025, the documented limit it shares with Telemetrica).
 */
export const tellBase1000Sheet: DeviceSheet = {
  model: 'TELL-BASE1000',
  label: 'TELL Gate Control BASE 1000',
  operatorNotes: [
    `the unit takes commands only from its super admins and admins (${cite('tellBase1000Manual', `${P49}, "Commands are accepted from super admins or admins registered in the device"`)}): register the number the server sends from as an admin first (\`*SUPERADMIN#\` from that number registers it when the unit has no super admin yet, ${cite('tellBase1000Manual', `${P50}, reply "YOU ARE REGISTERED AS SUPERADMIN!"`)})`,
    'residents are written with entry period N (0–24) and output OUT1: a unit wired to OUT2, or one whose control mode needs no output, must be told otherwise (the manual, p. 50, "OUTPUT" and "ENTRY PERIOD")',
  ],
  slotCount: 1000,
  addressing: 'number',
  hasPassword: false,
  passwordPattern: null,
  passwordHint: null,
  capacity: 1000,
  capacitySource: `${cite('tellBase1000Manual', 'title "Gate Control BASE 1000", models "Gate Control BASE 1000 - 2G/3G/4G.IN4.R2"')}; the maker's earlier line: ${cite('tellPro1000Manual', 'p. 1, "20 and 1000 user variant"')}`,
  confirmation: 'reply',
  batch: null,
  clockForms: [],
  clockOrder: null,
  supportsTimeWindows: false,
  timeFormat: null,
  numberFormat: '+7',
  numberFormatSource: cite('tellBase1000Manual', `${P50}, example n=+36301234567,John Smith,A,N,B#`),
  formatSlot: (slot) => String(slot),
  slotPattern: '\\d{1,4}',
  commands: {
    add: {
      template: '*n={number},{number},U,N,1#',
      source: `${cite('tellBase1000Manual', `${P50}, n=PHONE NUMBER,NAME,ROLE,ENTRY PERIOD,OUTPUT#, example n=+36301234567,John Smith,A,N,B#; U = User, N = 0-24, 1 = OUT1`)}; the * from p. 49, "Each command must begin with the star character"; the number as the name is this project's choice`,
      unverified: true,
    },
    addWindow: null,
    delete: {
      template: '*d={number}#',
      source: cite('tellBase1000Manual', `${P49}, table "Deleting a user": d=PHONE NUMBER#`),
    },
    setClock: null,
  },
  lostReplies: {
    delete: cite(
      'tellBase1000Manual',
      `${P49}: "The device will send a confirmation about processed commands only"; the delete's reply text (§6.1, after p. 50) was not read by this project`,
    ),
  },
  replies: {
    add: [
      {
        template: 'NEW USER REGISTERED.',
        source: cite(
          'tellBase1000Manual',
          `${P50}, reply "NEW USER REGISTERED." = "New user registered successfully"`,
        ),
      },
      // The number is on the unit already: what the add wanted.
      {
        template: 'USER ALREADY EXISTS!',
        source: cite(
          'tellBase1000Manual',
          `${P50}, reply "USER ALREADY EXISTS!" = "The given phone number already exists in the system"`,
        ),
      },
    ],
    addWindow: [],
    delete: [
      {
        template: 'USER DELETED',
        source: `no source read: the unit confirms every processed command (${cite('tellBase1000Manual', 'p. 49')}), the text is this project's guess in the words of its add reply`,
        unverified: true,
      },
    ],
    setClock: [],
    refused: [],
    formatError: [
      syntaxError,
      {
        template: 'NUMBER ERROR!',
        source: cite(
          'tellBase1000Manual',
          `${P50}, reply "NUMBER ERROR!" = "The phone number is too short or too long"`,
        ),
      },
      {
        template: 'MISSING PARAMETER',
        source: cite(
          'tellBase1000Manual',
          `${P50}, reply "MISSING PARAMETER" = "The OUTPUT parameter is missing for control mode 1 or 2"`,
        ),
      },
      {
        template: 'ERROR: INVALID CHARACTER',
        source: cite(
          'tellBase1000Manual',
          `${P50}, reply 'ERROR: INVALID CHARACTER: "X"!' = "Wrong parameter (X) in the command"`,
        ),
      },
    ],
    genericSuccess: {
      template: 'OK',
      source: 'What the simulator answers to a setting without a documented reply (no source)',
      unverified: true,
    },
  },
  readBack: null,
  settings: {},
};
