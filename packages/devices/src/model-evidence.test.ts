import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allModelEvidence, modelEvidence, sheetEvidence } from './model-evidence.ts';
import {
  MODELS_DOC_PATH,
  renderModelsDoc,
  UNVERIFIED_STATUS,
  VERIFIED_STATUS,
} from './model-evidence-doc.ts';
import { DEVICE_MODELS, getSheet, unverifiedForms } from './models.ts';
import type { DeviceSheet } from './sheet-types.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The document's table row of a form, found by its template in a code span. */
const rowOf = (doc: string, template: string) =>
  doc.split('\n').filter((line) => line.startsWith('| ') && line.includes(` | \`${template}\` | `));

describe('docs/devices/MODELS.md', () => {
  it('is what the sheets generate (run `npm run devices:evidence` and commit it when a sheet changes)', () => {
    const committed = readFileSync(resolve(root, MODELS_DOC_PATH), 'utf8');
    expect(committed).toBe(renderModelsDoc());
  });

  it('has one summary row and one section per model, with the counts of its forms', () => {
    const doc = renderModelsDoc();
    for (const evidence of allModelEvidence()) {
      const summary = doc.split('\n').find((line) => line.includes(`(\`${evidence.model}\`) |`));
      expect(summary, evidence.model).toMatch(
        new RegExp(`\\| ${evidence.verifiedCount} \\| ${evidence.unverifiedCount} \\|$`),
      );
      expect(doc).toContain(`## ${evidence.label} (\`${evidence.model}\`)`);
    }
    expect(allModelEvidence().map((evidence) => evidence.model)).toEqual([...DEVICE_MODELS]);
  });
});

describe('modelEvidence', () => {
  it('lists as unverified every form the screens mark «не проверено на устройстве»', () => {
    for (const model of DEVICE_MODELS) {
      const { forms } = modelEvidence(model);
      for (const marked of unverifiedForms(model)) {
        const side = marked.side === 'sms' ? 'sms' : 'reply';
        const found = forms.filter(
          (form) => form.side === side && !form.verified && form.form.startsWith(marked.template),
        );
        expect(found.length, `${model} ${marked.template}`).toBeGreaterThan(0);
      }
    }
  });

  it('cites a source for every form, the capacity, the number form, the factory password and alarm recipients', () => {
    for (const evidence of allModelEvidence()) {
      // The sheet test checks commands, replies, read-back, clock, batch and settings; this adds the unasked SMS.
      for (const form of evidence.forms)
        expect(form.source, `${evidence.model} ${form.form}`).toMatch(/\S{10,}/);
      expect(evidence.capacitySource, evidence.model).toMatch(/\S{10,}/);
      expect(evidence.numberFormatSource, evidence.model).toMatch(/\S{10,}/);
      if (evidence.factoryPassword) expect(evidence.factoryPassword.source).toMatch(/\S{10,}/);
      if (evidence.alarmRecipients) expect(evidence.alarmRecipients.source).toMatch(/\S{10,}/);
    }
  });

  it('shows a form as unverified as soon as its sheet marks it so, and as shown by its source otherwise', () => {
    const sheet = getSheet('RTU5025');
    const before = sheetEvidence('RTU5025', sheet, null);
    const deleteRow = rowOf(renderModelsDoc([before]), '{pwd}A{slot}##');
    expect(deleteRow).toHaveLength(1);
    expect(deleteRow[0]).toContain(VERIFIED_STATUS);
    expect(deleteRow[0]).toContain('RTU5034 User Manual v1.7');

    const marked: DeviceSheet = {
      ...sheet,
      commands: { ...sheet.commands, delete: { ...sheet.commands.delete, unverified: true } },
    };
    const after = sheetEvidence('RTU5025', marked, null);
    expect(after.unverifiedCount).toBe(before.unverifiedCount + 1);
    expect(after.verifiedCount).toBe(before.verifiedCount - 1);
    const markedRow = rowOf(renderModelsDoc([after]), '{pwd}A{slot}##');
    expect(markedRow[0]).toContain(UNVERIFIED_STATUS);
    expect(markedRow[0]).not.toContain(VERIFIED_STATUS);
  });

  it('takes every form from the sheet: commands, replies, read-back, clock, batch, settings, alarms', () => {
    const rtu = modelEvidence('RTU5025');
    const sheet = getSheet('RTU5025');
    const templates = rtu.forms.map((form) => form.form);
    for (const setting of Object.values(sheet.settings)) expect(templates).toContain(setting.template);
    for (const clock of sheet.clockForms) expect(templates).toContain(clock.command.template);
    expect(templates).toContain(sheet.readBack?.command.template);
    expect(templates).toContain('SMS Format Error');
    expect(rtu.forms.filter((form) => form.group === 'alarm')).toHaveLength(sheet.alarms?.forms.length ?? -1);
    expect(rtu.capacity).toBe(999);
    expect(rtu.confirmation).toBe('reply');
    expect(rtu.alarmRecipients).toMatchObject({ alarmSlots: 6, powerSlot: 1 });

    // Telemetrica: nothing was seen on a gate module, so no form of it counts as shown by its source.
    const telemetrica = modelEvidence('Telemetrica');
    expect(telemetrica.verifiedCount).toBe(0);
    expect(telemetrica.forms.find((form) => form.group === 'batch')?.form).toBe('#06#{number}#{number}#…#');
  });

  it('says which models a new barrier may not choose, and why, and how each change is confirmed', () => {
    const eldes = modelEvidence('ESIM120');
    expect(eldes.offered).toBe(false);
    expect(eldes.confirmation).toBe('none');
    expect(eldes.unavailableReason).toMatch(/изменения нельзя подтвердить/);
    expect(renderModelsDoc([eldes])).toContain(`«${eldes.unavailableReason}»`);
    expect(modelEvidence('RTU5024-HASH')).toMatchObject({ offered: true, confirmation: 'read_back' });
    // The hash-style add is answered, but the manual's text is lost: the evidence says so (issue 42 item 7).
    const hash = modelEvidence('RTU5024-HASH');
    const hashAdd = hash.forms.find((form) => form.what.startsWith('Add a number'));
    expect(hashAdd?.what).toMatch(
      /^Add a number; the unit replies, but the source's reply text is lost \(.*will return:/,
    );
    // A whitelist command without a documented reply says so.
    const hashDelete = hash.forms.find((form) => form.what.startsWith('Delete a number'));
    expect(hashDelete?.what).toBe('Delete a number; no reply documented');
  });

  it('carries the corrections of issue 42: Password Error, the ddMMyy citation, RTU5024 windows from firmware 1.7', () => {
    const rtu5025 = modelEvidence('RTU5025');
    const refusals = rtu5025.forms.filter((form) => form.what === 'Wrong password').map((form) => form.form);
    expect(refusals).toEqual(['Error password', 'Password Error']);
    const ddMMyy = rtu5025.forms.find((form) => form.what.includes('digits ddMMyyHHmm'));
    expect(ddMMyy?.source).toContain(
      'idealfit/gsm-relay, windows-ui/GSMRelayDesktop/ViewModels/MainViewModel.cs (SetupRelayAsync',
    );
    const window5024 = modelEvidence('RTU5024').forms.find((form) =>
      form.what.startsWith('Add a number with'),
    );
    expect(window5024?.what).toContain('(firmware 1.7 and later)');
    expect(window5024?.source).toContain('firmware v1.7+');
    const window5025 = rtu5025.forms.find((form) => form.what.startsWith('Add a number with'));
    expect(window5025?.what).not.toContain('firmware');
  });
});
