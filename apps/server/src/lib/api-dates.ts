/**
 * Date-times in API answers carry the barriers' local offset (DESIGN.md section 2; one offset per deployment,
 * `DEVICE_TIMEZONE_OFFSET_MINUTES`, Moscow by default). Set once by buildApp from the validated config, so
 * that the pure mappers of every module can format without carrying the config around.
 */
import { formatDateTimeOutput } from '@propusk/contracts/phones';

const MOSCOW_OFFSET_MINUTES = 180;
let offsetMinutes = MOSCOW_OFFSET_MINUTES;

export function setApiDateTimeOffset(minutes: number): void {
  offsetMinutes = minutes;
}

export function apiDateTime(date: Date): string;
export function apiDateTime(date: Date | null | undefined): string | null;
export function apiDateTime(date: Date | null | undefined): string | null {
  return date ? formatDateTimeOutput(date, offsetMinutes) : null;
}
