/**
 * Device models the create form offers (spec.md section 9: only RTU5025). The server checks the model against
 * its command sheets; models without a device password (Telemetrica) disable the password field.
 */
export const DEVICE_MODEL_OPTIONS = [{ value: 'RTU5025', label: 'RTU5025' }] as const;
export const DEFAULT_DEVICE_MODEL = 'RTU5025';

const MODELS_WITHOUT_PASSWORD: readonly string[] = ['Telemetrica'];

export function hasDevicePassword(model: string): boolean {
  return !MODELS_WITHOUT_PASSWORD.includes(model);
}

export const isDevicePassword = (value: string) => /^\d{4}$/.test(value);
