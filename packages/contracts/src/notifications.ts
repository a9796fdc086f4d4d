/**
 * Web Push notifications (issue 43, docs/decisions/0035): the events a person may be told of, his choices
 * and quiet hours, and a browser's subscription. The texts themselves are built on the server
 * (modules/notifications/texts.ts); they name a barrier by its address, never a phone number or a person.
 */
import { z } from 'zod';
import './zod-messages.ts';

/** Events for a barrier's administrators (each goes only to staff whose role holds its permission). */
export const ADMIN_EVENT_KINDS = [
  'unit_silent',
  'power_lost',
  'power_restored',
  'hold_started',
  'hold_ended',
  'sms_budget_80',
  'import_finished',
  'access_request_new',
] as const;
/** Events for a resident about his own access. */
export const RESIDENT_EVENT_KINDS = [
  'request_accepted',
  'request_rejected',
  'invitation',
  'access_ending',
  'guest_pass_used',
  'sms_share_used',
] as const;
export const EVENT_KINDS = [...ADMIN_EVENT_KINDS, ...RESIDENT_EVENT_KINDS] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export type AdminEventKind = (typeof ADMIN_EVENT_KINDS)[number];

/** Urgent events ignore quiet hours: the gate may be dead or stuck. */
export const URGENT_EVENT_KINDS: ReadonlySet<EventKind> = new Set([
  'unit_silent',
  'power_lost',
  'power_restored',
]);

/** The label of each switch in the profile's «Уведомления». */
export const EVENT_KIND_LABELS: Record<EventKind, string> = {
  unit_silent: 'Устройство не отвечает',
  power_lost: 'Пропало питание',
  power_restored: 'Питание восстановлено',
  hold_started: 'Удержание открытым включено другим',
  hold_ended: 'Удержание снято другим',
  sms_budget_80: 'Израсходовано 80 % СМС недели',
  import_finished: 'Импорт завершён',
  access_request_new: 'Новая заявка на доступ',
  request_accepted: 'Моя заявка принята',
  request_rejected: 'Моя заявка отклонена',
  invitation: 'Приглашение',
  access_ending: 'Мой доступ скоро закончится',
  guest_pass_used: 'Гость воспользовался пропуском',
  sms_share_used: 'Моя доля СМС израсходована',
};

/** Power-loss SMS to one administrator about one barrier within 24 hours, however often the power flaps. */
export const POWER_SMS_PER_DAY = 3;

/** The switch of the SMS on power loss and what it means (the profile's «Уведомления»). */
export const POWER_SMS_TEXTS = {
  label: 'СМС при отключении питания',
  description: `СМС на ваш номер, когда у устройства вашего шлагбаума пропало питание, если уведомление о нём не придёт: ни одно устройство не подписано или уведомление «Пропало питание» выключено. Одно СМС на отключение, не больше ${POWER_SMS_PER_DAY} за сутки; входит в недельный лимит СМС шлагбаума.`,
} as const;

/** Every event is on until the person turns it off. */
export const DEFAULT_EVENT_CHOICE = true;

const MINUTES_IN_DAY = 24 * 60;
const minuteOfDay = z
  .number()
  .int()
  .min(0)
  .max(MINUTES_IN_DAY - 1);

export const notificationPreferencesSchema = z.object({
  /** Every kind the person may receive, with his choice (or the default). */
  events: z.array(z.object({ kind: z.enum(EVENT_KINDS), enabled: z.boolean(), urgent: z.boolean() })),
  quiet_hours: z.object({ from: minuteOfDay, to: minuteOfDay }).nullable(),
  time_zone: z.string(),
  /** How many of this person's devices are subscribed. */
  devices: z.number().int(),
  /**
   * An administrator's «СМС при отключении питания» (null for a resident): an SMS to his own number when a
   * unit of his barriers loses power and no push would reach him (no device subscribed, or the push of
   * power loss turned off). Counted in the barrier's weekly SMS limit; one per outage, at most
   * `POWER_SMS_PER_DAY` a day per barrier.
   */
  power_sms: z.boolean().nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** An IANA zone name as the browser reports it (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
const timeZoneSchema = z
  .string()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/);

export const notificationPreferencesUpdateSchema = z
  .object({
    events: z
      .array(z.object({ kind: z.enum(EVENT_KINDS), enabled: z.boolean() }))
      .max(EVENT_KINDS.length)
      .optional(),
    quiet_hours: z
      .object({ from: minuteOfDay, to: minuteOfDay })
      .refine((hours) => hours.from !== hours.to)
      .nullable()
      .optional(),
    time_zone: timeZoneSchema.optional(),
    /** An administrator's «СМС при отключении питания» (refused for a resident). */
    power_sms: z.boolean().optional(),
  })
  .strict();
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;

/** `PushSubscription.toJSON()` as the browser gives it (lengths bounded before anything else). */
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/);
export const pushSubscriptionBodySchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2048),
  keys: z.object({ p256dh: base64url(128), auth: base64url(64) }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;
export const pushUnsubscribeBodySchema = z.object({ endpoint: z.string().min(1).max(2048) });

export const vapidKeySchema = z.object({ public_key: z.string() });

/** What the service worker receives in a push (the decrypted payload). */
export const pushPayloadSchema = z.object({
  kind: z.enum(EVENT_KINDS),
  title: z.string(),
  body: z.string(),
  /** The app's screen to open (a path of the app, with its query). */
  url: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
