/** Shown when a login screen is opened without a phone (spec.md section 2: a sample default is pre-filled). */
export const SAMPLE_PHONE = '+79990000000';
