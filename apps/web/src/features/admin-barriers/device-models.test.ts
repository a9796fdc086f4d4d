import { DEVICE_MODELS, getSheet } from '@propusk/devices/models';
import { describe, expect, it } from 'vitest';
import { validateCreateBarrier } from './components/create-barrier-form';
import { DEVICE_MODEL_OPTIONS, devicePasswordHint, hasDevicePassword } from './device-models';

describe('the barrier form model list (from @propusk/devices)', () => {
  it('offers every sheet model with its capacity and password hint', () => {
    expect(DEVICE_MODEL_OPTIONS.map((option) => option.value)).toEqual([...DEVICE_MODELS]);
    for (const model of DEVICE_MODELS) {
      const sheet = getSheet(model);
      const option = DEVICE_MODEL_OPTIONS.find((candidate) => candidate.value === model);
      expect(option?.label, model).toContain(sheet.label);
      expect(option?.label, model).toContain(`до ${sheet.capacity} `);
      expect(hasDevicePassword(model), model).toBe(sheet.hasPassword);
      expect(devicePasswordHint(model), model).toBe(sheet.passwordHint);
    }
    // A model the engine cannot confirm yet is shown, disabled.
    expect(DEVICE_MODEL_OPTIONS.find((option) => option.value === 'ESIM120')?.disabled).toBe(true);
    expect(DEVICE_MODEL_OPTIONS.find((option) => option.value === 'RTU5025')?.disabled).toBe(false);
  });

  it('refuses more numbers than the chosen model holds', () => {
    const values = {
      address: 'г. Москва, ул. Ленина, д. 1',
      chosenAddress: 'г. Москва, ул. Ленина, д. 1',
      devicePhone: '+79161234567',
      deviceModel: 'Telemetrica',
      devicePassword: '',
      devicePhonesAmount: '100',
      additionalInfo: '',
      isPublic: true,
    };
    expect(validateCreateBarrier(values).devicePhonesAmount).toContain('4');
    expect(validateCreateBarrier({ ...values, devicePhonesAmount: '4' }).devicePhonesAmount).toBeUndefined();
  });
});
