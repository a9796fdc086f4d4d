/** The shapes every phone change and check shares (phone-changes.ts, phone-admission.ts). */
import type { ActionAuthor } from '@propusk/contracts/actions';
import type { PhoneType } from '@propusk/contracts/phones';
import type { barrierLimits, phones, WeeklySchedule } from '../../db/schema.ts';

export type PhoneRow = typeof phones.$inferSelect;
export type LimitsRow = typeof barrierLimits.$inferSelect;

export interface LockedBarrier {
  id: number;
  ownerId: number;
  deviceModel: string;
  devicePhonesAmount: number;
  /** The gateway's number in slot 1 (residents then live above the alarm slots), or null. */
  deviceGatewayNumber: string | null;
  limits: Omit<LimitsRow, 'barrierId' | 'updatedAt'>;
}

/** Who made a change, for the history. */
export interface Actor {
  author: ActionAuthor;
  userId: number | null;
}

export interface NewPhone {
  userId: number;
  number: string;
  name: string;
  type: PhoneType;
  startTime: Date | null;
  endTime: Date | null;
  schedule: WeeklySchedule | null;
  /** The resident whose SMS share pays this timed phone's coming SMS (`phones.sms_paid_by`); none: the reserve. */
  smsPaidBy?: number | null;
}

/** A phone whose SMS come with its windows (its coming week's SMS are someone's share: `sms_paid_by`). */
export const isTimedType = (type: PhoneType): boolean => type === 'temporary' || type === 'schedule';
