import type { DeviceSheet, SourcedForm } from '../sheet-types.ts';
import { createRtuSheet } from './rtu-family.ts';
import { cite } from './sources.ts';

const unverified = (form: SourcedForm): SourcedForm => ({ ...form, unverified: true });

/**
 * The sheet with every reply form marked unverified: the forms stay (the engine still needs them to confirm),
 * but no source shows them for this model, so the screens say «не проверено на устройстве» (issue 30 item 7).
 */
function withRepliesUnverified(sheet: DeviceSheet): DeviceSheet {
  const { replies } = sheet;
  return {
    ...sheet,
    replies: {
      add: replies.add.map(unverified),
      addWindow: replies.addWindow.map(unverified),
      delete: replies.delete.map(unverified),
      setClock: replies.setClock.map(unverified),
      refused: replies.refused.map(unverified),
      formatError: replies.formatError.map(unverified),
      genericSuccess: unverified(replies.genericSuccess),
    },
    clockForms: sheet.clockForms.map((form) => ({ ...form, replies: form.replies.map(unverified) })),
    readBack: sheet.readBack
      ? {
          ...sheet.readBack,
          line: sheet.readBack.line.map(unverified),
          empty: sheet.readBack.empty.map(unverified),
        }
      : null,
    settings: Object.fromEntries(
      Object.entries(sheet.settings).map(([id, setting]) => [
        id,
        { ...setting, replies: setting.replies.map(unverified) },
      ]),
    ),
  };
}

/**
 * Badodo G200, an RTU clone: the RTU5025 forms (`1234P`, `1234A002#044777777#`, `1234A005#`, `1234AL005#010#`,
 * `1234A005##`, `ALL#`, `AUT#`, `GOT010#`, `CC`, `DD`: its manual, page 4), 200 users ("Total 200 users:
 * 001 - 200", slot 001 is the admin) and a relay time of 000–900 seconds. Its manual prints no reply texts:
 * the replies are the RTU5025 ones, marked unverified (not shown for a G200 by any source).
 */
export const g200Sheet = withRepliesUnverified(
  createRtuSheet('G200', 'Badodo G200', 200, {
    capacitySource: cite('badodoG200', 'p. 4, "Total 200 users: 001 - 200"'),
    maxRelaySeconds: 900,
    relayTimeSource: cite('badodoG200', 'p. 4, example 1234GOT010#, "Relay time: 000 - 900"'),
    cloneSource: cite('badodoG200', 'p. 4 (the same form)'),
  }),
);
