/**
 * The demo provider's devices (DEVICE_SIM=on): every SMS the demo gateway sends to a barrier's device
 * phone is fed to that barrier's simulated controller (its model's sheet, a slot table, real reply texts),
 * and the reply comes back after DEVICE_SIM_DELAY_MS through the same function as a real inbound SMS.
 * A simulator starts with the password stored for the barrier when it first hears from the server, and
 * from then on keeps its own (as a real device would: correcting the stored password does not change it).
 *
 * Simulators live in memory, but the database remembers what the devices hold. So that a demo restarted
 * with DEVICE_SIM=on stays consistent, a simulator is seeded when it is created (lazily, at the first SMS to
 * its device) from the believed state: the confirmed slots (`device_slots`, windows included) and, when the
 * clock was ever set, a clock showing the right time. Settings the simulator keeps beside its slot table
 * (relay time, "allow all callers") are not in the database and start at the defaults.
 *
 * A command in flight when the process stopped: a real device that got its SMS answers anyway, and the
 * gateway delivers that answer once the server is back (the Android app retries its webhook). The demo's
 * devices and their pending answers died with the process, so `answerInFlight` plays that part at start-up:
 * every command still waiting for its reply whose SMS left (the demo gateway has its key in SMS_FILE) is
 * heard by its (re-seeded) device, and the device's answer is delivered. One whose SMS never left is not:
 * the queue hands it over again under the same key once its reply is overdue.
 */

import { renderCommand } from '@propusk/devices/commands';
import { type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import type { PlannedCommand } from '@propusk/devices/planner';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { createDeviceSimulator, type DeviceSimulator } from '@propusk/devices/simulator';
import type { DemoSmsGateway } from '@propusk/sms/demo';
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import { barriers, deviceCommands, deviceSlots } from '../db/schema.ts';
import type { QueueDeps } from '../engine/plan/index.ts';
import { handOffKey } from '../engine/send/index.ts';
import type { DemoDevices } from '../lib/dependencies.ts';

/**
 * How a simulated unit's answers travel, as real ones do in the field (issue 30, docs/decisions/0025):
 * `late`: each answer arrives `delayMs` late (a unit out of coverage, an SMS centre holding it); `duplicate`:
 * each answer arrives twice (an operator's repeated delivery); `split`: an answer of several lines arrives as
 * one SMS per `linesPerPart` lines, last part first (a gateway delivering the parts of a long SMS one by one).
 */
export type ReplyDelivery =
  /** The next `count` answers never arrive (an operator that loses them; issue 30 item 4: a password change's). */
  | { kind: 'lost'; count: number }
  | { kind: 'late'; delayMs: number }
  | { kind: 'duplicate' }
  | { kind: 'split'; linesPerPart: number };

export interface SimulatorRegistry extends DemoDevices {
  /** How the barrier's unit delivers its answers from now on (null: at once, once, whole). */
  deliverAs(barrierId: number, delivery: ReplyDelivery | null): void;
  /** The simulated device of a barrier, once it received an SMS. */
  device(barrierId: number): DeviceSimulator | undefined;
  /** The unit never hears the next `count` SMS sent to it (lost on the way: out of coverage for good). */
  missNext(barrierId: number, count: number): void;
  /** Resolves once every SMS handed to the simulators so far has been read (replies are then scheduled). */
  settled(): Promise<void>;
  /**
   * At start-up, before the worker: the devices answer the commands that were in flight when the last
   * process stopped and whose SMS left (see above). Returns how many answers were delivered.
   */
  answerInFlight(): Promise<number>;
}

export function attachDeviceSimulators(
  gateway: DemoSmsGateway,
  deps: Pick<QueueDeps, 'db' | 'clock' | 'config' | 'secrets' | 'logger'>,
  deliver: (reply: { from: string; text: string }) => Promise<unknown>,
  options: {
    delayMs: number;
    /** How a reply is deferred; default a timer. Tests pass their own to deliver replies by hand. */
    schedule?: (run: () => Promise<void>, delayMs: number, meta: { late: boolean }) => void;
  },
): SimulatorRegistry {
  const devices = new Map<number, DeviceSimulator>();
  const creating = new Map<number, Promise<DeviceSimulator>>();
  const reading = new Set<Promise<void>>();
  const deliveries = new Map<number, ReplyDelivery>();
  /** SMS each unit will not hear (`missNext`). */
  const misses = new Map<number, number>();
  const schedule =
    options.schedule ??
    ((run: () => Promise<void>, delayMs: number) => {
      setTimeout(() => void run(), delayMs).unref?.();
    });

  /** A new simulator holding what the database believes the barrier's device holds. */
  const createSeeded = async (barrier: {
    id: number;
    model: DeviceModel;
    passwordEncrypted: string | null;
    clockSetAt: Date | null;
    profile: unknown;
  }): Promise<DeviceSimulator> => {
    const password = barrier.passwordEncrypted ? deps.secrets.decrypt(barrier.passwordEncrypted) : null;
    const utcOffsetMinutes = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
    const now = deps.clock.now();
    const device = createDeviceSimulator({
      model: barrier.model,
      password,
      utcOffsetMinutes,
      // A unit that answers as the barrier's profile says (DESIGN: the simulator can play such a unit).
      profile: (barrier.profile as DeviceProfileOverride | null) ?? null,
      // A clock the server once set keeps the time; one it never set shows the factory default.
      ...(barrier.clockSetAt ? { clock: now } : {}),
    });
    const slots = await deps.db
      .select()
      .from(deviceSlots)
      .where(eq(deviceSlots.barrierId, barrier.id))
      .orderBy(asc(deviceSlots.slot));
    for (const row of slots) {
      const command: PlannedCommand =
        row.windowStart && row.windowEnd
          ? {
              kind: 'add_window',
              slot: row.slot,
              number: row.number,
              window: { start: row.windowStart, end: row.windowEnd },
            }
          : { kind: 'add', slot: row.slot, number: row.number };
      try {
        // Written the way the server wrote it, so the slot table is exactly what the device confirmed.
        const profile = (barrier.profile as DeviceProfileOverride | null) ?? null;
        device.receive(
          renderCommand(barrier.model, command, password, { now, utcOffsetMinutes, profile }),
          now,
        );
      } catch (error) {
        deps.logger.warn({ err: error, barrierId: barrier.id, slot: row.slot }, 'simulator slot not seeded');
      }
    }
    return device;
  };

  /** The barrier's simulator, created once even when two SMS to a new device are read at the same time. */
  const deviceFor = (barrier: Parameters<typeof createSeeded>[0]): Promise<DeviceSimulator> => {
    const existing = devices.get(barrier.id);
    if (existing) return Promise.resolve(existing);
    let pending = creating.get(barrier.id);
    if (!pending) {
      pending = createSeeded(barrier)
        .then((device) => {
          devices.set(barrier.id, device);
          return device;
        })
        .finally(() => creating.delete(barrier.id));
      creating.set(barrier.id, pending);
    }
    return pending;
  };

  /** The device's answer to an SMS it hears now (null: it does not answer), and whose device it is. */
  const hearFrom = async (to: string, text: string): Promise<{ barrierId: number; reply: string } | null> => {
    const [barrier] = await deps.db
      .select({
        id: barriers.id,
        model: barriers.deviceModel,
        passwordEncrypted: barriers.devicePasswordEncrypted,
        clockSetAt: barriers.deviceClockSetAt,
        profile: barriers.deviceProfile,
      })
      .from(barriers)
      .where(eq(barriers.devicePhone, to))
      .orderBy(desc(barriers.id))
      .limit(1);
    if (!barrier || !isDeviceModel(barrier.model)) return null;
    const device = await deviceFor({ ...barrier, model: barrier.model });
    const missed = misses.get(barrier.id) ?? 0;
    if (missed > 0) {
      misses.set(barrier.id, missed - 1);
      return null;
    }
    const reply = device.receive(text, deps.clock.now());
    return reply === null ? null : { barrierId: barrier.id, reply };
  };
  const hear = async (to: string, text: string) => (await hearFrom(to, text))?.reply ?? null;

  const send = (to: string, text: string, delayMs: number, late: boolean) =>
    schedule(
      async () => {
        try {
          await deliver({ from: to, text });
        } catch (error) {
          deps.logger.error({ err: error }, 'device simulator reply failed');
        }
      },
      delayMs,
      { late },
    );

  const handle = async (to: string, text: string) => {
    const heard = await hearFrom(to, text);
    if (heard === null) return;
    const { reply } = heard;
    const delivery = deliveries.get(heard.barrierId);
    if (delivery?.kind === 'lost') {
      if (delivery.count <= 1) deliveries.delete(heard.barrierId);
      else deliveries.set(heard.barrierId, { kind: 'lost', count: delivery.count - 1 });
      return;
    }
    if (delivery?.kind === 'late') send(to, reply, options.delayMs + delivery.delayMs, true);
    else if (delivery?.kind === 'duplicate') {
      send(to, reply, options.delayMs, false);
      send(to, reply, options.delayMs, false);
    } else if (delivery?.kind === 'split') {
      const lines = reply.split('\n');
      const parts: string[] = [];
      for (let index = 0; index < lines.length; index += delivery.linesPerPart)
        parts.push(lines.slice(index, index + delivery.linesPerPart).join('\n'));
      for (const part of parts.reverse()) send(to, part, options.delayMs, false);
    } else send(to, reply, options.delayMs, false);
  };

  // A unit hears its SMS one at a time, in the order they were sent: `handle` first reads the barrier from the
  // database, and two SMS sent back to back (a change and its confirming read, 0026) would otherwise be heard
  // in the order those reads came back — through PgBouncer sometimes the read first, so `missNext` dropped the
  // read instead of the change and the tests of read-back confirmation failed now and then.
  const hearing = new Map<string, Promise<void>>();
  gateway.onSend((message) => {
    const before = hearing.get(message.to) ?? Promise.resolve();
    const read = before
      .then(() => handle(message.to, message.text))
      .catch((error) => deps.logger.error({ err: error }, 'device simulator failed'));
    hearing.set(message.to, read);
    reading.add(read);
    void read.finally(() => {
      reading.delete(read);
      if (hearing.get(message.to) === read) hearing.delete(message.to);
    });
  });

  return {
    device: (barrierId) => devices.get(barrierId),
    missNext(barrierId, count) {
      misses.set(barrierId, count);
    },
    deliverAs(barrierId, delivery) {
      if (delivery) deliveries.set(barrierId, delivery);
      else deliveries.delete(barrierId);
    },
    loseReplies(barrierId, count) {
      deliveries.set(barrierId, { kind: 'lost', count });
    },
    drift(barrierId, change) {
      const device = devices.get(barrierId);
      if (!device) return false;
      device.drift(change);
      return true;
    },
    whitelist(barrierId) {
      return devices.get(barrierId)?.whitelist(deps.clock.now()) ?? null;
    },
    call(barrierId, from) {
      return devices.get(barrierId)?.wouldOpenFor(from, deps.clock.now()) ?? null;
    },
    relay(barrierId) {
      return devices.get(barrierId)?.relay(deps.clock.now()) ?? null;
    },
    async raiseAlarm(barrierId, kind) {
      const device = devices.get(barrierId);
      if (!device) return null;
      const [barrier] = await deps.db
        .select({ devicePhone: barriers.devicePhone })
        .from(barriers)
        .where(eq(barriers.id, barrierId));
      if (!barrier) return null;
      const sms = device.raiseAlarm(kind);
      // Only the SMS to the gateway's number reach the server; those to residents' phones leave the story.
      const toGateway = sms.filter((message) => message.to === deps.config.DEVICE_GATEWAY_PHONE);
      for (const message of toGateway) send(barrier.devicePhone, message.text, options.delayMs, false);
      return { sent: sms.length, toGateway: toGateway.length };
    },
    async settled() {
      while (reading.size > 0) await Promise.all([...reading]);
    },
    async answerInFlight() {
      const inFlight = await deps.db
        .select({
          id: deviceCommands.id,
          attempts: deviceCommands.attempts,
          createdAt: deviceCommands.createdAt,
        })
        .from(deviceCommands)
        .where(and(eq(deviceCommands.status, 'sent'), gt(deviceCommands.attempts, 0)))
        .orderBy(asc(deviceCommands.id));
      let answered = 0;
      for (const command of inFlight) {
        const sent = await gateway.sentWithKey(handOffKey(command, command.attempts));
        if (!sent) continue;
        const reply = await hear(sent.to, sent.text);
        if (reply === null) continue;
        await deliver({ from: sent.to, text: reply });
        answered += 1;
      }
      return answered;
    },
  };
}
