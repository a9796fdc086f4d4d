import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readVerifiedProfiles } from '../scripts/verified-profiles.ts';
import { allModelEvidence, modelEvidence, sheetEvidence } from './model-evidence.ts';
import {
  MODELS_DOC_PATH,
  renderModelsDoc,
  UNVERIFIED_STATUS,
  VERIFIED_STATUS,
} from './model-evidence-doc.ts';
import { NOT_RUN_ON_UNIT, VERIFIED_PROFILES_DIR } from './model-runs.ts';
import { DEVICE_MODELS, getSheet, unverifiedForms } from './models.ts';
import { profileFile } from './profile-file.ts';
import type { DeviceSheet } from './sheet-types.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The document's table row of a form, found by its template in a code span. */
const rowOf = (doc: string, template: string) =>
  doc.split('\n').filter((line) => line.startsWith('| ') && line.includes(` | \`${template}\` | `));

describe('docs/devices/MODELS.md', () => {
  it('is what the sheets and the verified profiles generate (run `npm run devices:evidence` and commit it)', () => {
    const committed = readFileSync(resolve(root, MODELS_DOC_PATH), 'utf8');
    const { profiles, problems } = readVerifiedProfiles(resolve(root, VERIFIED_PROFILES_DIR));
    expect(problems).toEqual([]);
    expect(committed).toBe(renderModelsDoc(allModelEvidence(), profiles));
  });

  it('shows a run from a profile file placed in the folder, beside the forms its steps sent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propusk-verified-'));
    try {
      const file = profileFile({
        model: 'RTU5025',
        override: { replies: { delete: ['Slot {slot} cleared'] } },
        source: { kind: 'barrier', note: 'Профиль устройства шлагбаума № 3' },
        exportedAt: new Date('2026-11-28T12:00:00Z'),
        verified: [
          {
            run: 7,
            date: '2026-11-28T11:40:00.000Z',
            model: 'RTU5025',
            all_confirmed: false,
            firmware: 'RTU5025 V1.5',
            steps: [
              { key: 'add', verdict: 'as_sheet' },
              { key: 'set_clock', verdict: 'no_answer' },
              { key: 'delete', verdict: 'different' },
              { key: 'password', verdict: 'skipped' },
            ],
          },
        ],
      });
      writeFileSync(join(dir, 'rtu5025-estate.json'), JSON.stringify(file, null, 2));
      writeFileSync(join(dir, 'README.md'), 'not a profile');
      const { profiles, problems } = readVerifiedProfiles(dir);
      expect(problems).toEqual([]);
      const doc = renderModelsDoc(allModelEvidence(), profiles);
      const run = 'run 7 of 2026-11-28 (RTU5025, firmware "RTU5025 V1.5")';
      expect(doc).toContain(
        `- On a unit: ${run}, not every form as the sheet says; file \`docs/devices/verified/rtu5025-estate.json\`.`,
      );
      const rtu5025 = doc.slice(doc.indexOf('## RTU5025 ('), doc.indexOf('## Telemetrica'));
      expect(rowOf(rtu5025, '{pwd}A{slot}#{number}#')[0]).toMatch(
        new RegExp(`\\| ${run.replace(/[()]/g, '\\$&')}: as the sheet says \\|$`),
      );
      expect(rowOf(rtu5025, '{pwd}A{slot}##')[0]).toContain(`${run}: the unit answered in its own words`);
      // The clock step ran in the unit's order (the sheet's default), not the other one; a skipped step is no run.
      expect(rowOf(rtu5025, '{pwd}T{time}#')[0]).toContain(`${run}: no answer`);
      expect(rowOf(rtu5025, '{pwd}T{time}')[0]).toMatch(/\| — \|$/);
      expect(rowOf(rtu5025, '{pwd}P{new_password}')[0]).toMatch(/\| — \|$/);
      // Every other model still says no unit verified it.
      const g200 = doc.slice(doc.indexOf('## Badodo G200'));
      expect(g200).toContain(`- On a unit: ${NOT_RUN_ON_UNIT}`);
      expect(doc.split('\n').find((line) => line.includes('(`RTU5025`) |'))).toMatch(/\| 1 \|$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops on a file that is not a profile, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propusk-verified-'));
    try {
      writeFileSync(join(dir, 'broken.json'), '{"format":"propusk-device-profile","version":2}');
      expect(readVerifiedProfiles(dir).problems).toEqual([expect.stringMatching(/^broken\.json: .*верси/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says per model what a run would send and what only a unit can tell', () => {
    const doc = renderModelsDoc();
    const rtu5024 = doc.slice(doc.indexOf('## RTU5024 ('), doc.indexOf('## RTU5024/RTU5035'));
    expect(rtu5024).toContain(
      '- A conformance run would send: «Чтение тестовой ячейки до проверки», «Запись тестового номера»',
    );
    expect(rtu5024).toContain('(only from firmware 1.7)');
    expect(rtu5024).toContain("the clock's digit order (yyMMddHHmm or ddMMyyHHmm)");
    expect(rtu5024).toContain('«отключите питание устройства на минуту»');
    const base = doc.slice(doc.indexOf('## TELL Gate Control BASE 1000'));
    expect(base).toContain('it authenticates the sender, not a password');
    expect(base).toContain('- A conformance run would send: nothing: a run cannot start on this model');
    expect(base).toContain('the text of its reply to a delete, which the source lost');
  });

  it('has one summary row and one section per model, with the counts of its forms', () => {
    const doc = renderModelsDoc();
    for (const evidence of allModelEvidence()) {
      const summary = doc.split('\n').find((line) => line.includes(`(\`${evidence.model}\`) |`));
      expect(summary, evidence.model).toMatch(
        new RegExp(
          `\\| ${evidence.verifiedCount} \\| ${evidence.unverifiedCount} \\| ${NOT_RUN_ON_UNIT} \\|$`,
        ),
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
