/**
 * The demo provider's devices (DEVICE_SIM=on): every SMS the demo gateway sends to a barrier's device
 * phone is fed to that barrier's simulated controller (its model's sheet, a slot table, real reply texts),
 * and the reply comes back after DEVICE_SIM_DELAY_MS through the same function as a real inbound SMS.
 * A simulator starts with the password stored for the barrier when it first hears from the server, and
 * from then on keeps its own (as a real device would: correcting the stored password does not change it).
 */

import { isDeviceModel } from '@propusk/devices/models';
import { createDeviceSimulator, type DeviceSimulator } from '@propusk/devices/simulator';
import type { DemoSmsGateway } from '@propusk/sms/demo';
import { desc, eq } from 'drizzle-orm';
import { barriers } from '../../db/schema.ts';
import type { QueueDeps } from './queue.ts';

export interface SimulatorRegistry {
  /** The simulated device of a barrier, once it received an SMS. */
  device(barrierId: number): DeviceSimulator | undefined;
  /** Resolves once every SMS handed to the simulators so far has been read (replies are then scheduled). */
  settled(): Promise<void>;
}

export function attachDeviceSimulators(
  gateway: DemoSmsGateway,
  deps: Pick<QueueDeps, 'db' | 'clock' | 'config' | 'secrets' | 'logger'>,
  deliver: (reply: { from: string; text: string }) => Promise<unknown>,
  options: {
    delayMs: number;
    /** How a reply is deferred; default a timer. Tests pass their own to deliver replies by hand. */
    schedule?: (run: () => Promise<void>, delayMs: number) => void;
  },
): SimulatorRegistry {
  const devices = new Map<number, DeviceSimulator>();
  const reading = new Set<Promise<void>>();
  const schedule =
    options.schedule ??
    ((run: () => Promise<void>, delayMs: number) => {
      setTimeout(() => void run(), delayMs).unref?.();
    });

  const handle = async (to: string, text: string) => {
    const [barrier] = await deps.db
      .select({
        id: barriers.id,
        model: barriers.deviceModel,
        passwordEncrypted: barriers.devicePasswordEncrypted,
      })
      .from(barriers)
      .where(eq(barriers.devicePhone, to))
      .orderBy(desc(barriers.id))
      .limit(1);
    if (!barrier || !isDeviceModel(barrier.model)) return;
    let device = devices.get(barrier.id);
    if (!device) {
      device = createDeviceSimulator({
        model: barrier.model,
        password: barrier.passwordEncrypted ? deps.secrets.decrypt(barrier.passwordEncrypted) : null,
        utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
      });
      devices.set(barrier.id, device);
    }
    const reply = device.receive(text, deps.clock.now());
    if (reply === null) return;
    schedule(async () => {
      try {
        await deliver({ from: to, text: reply });
      } catch (error) {
        deps.logger.error({ err: error }, 'device simulator reply failed');
      }
    }, options.delayMs);
  };

  gateway.onSend((message) => {
    const read = handle(message.to, message.text).catch((error) =>
      deps.logger.error({ err: error }, 'device simulator failed'),
    );
    reading.add(read);
    void read.finally(() => reading.delete(read));
  });

  return {
    device: (barrierId) => devices.get(barrierId),
    async settled() {
      while (reading.size > 0) await Promise.all([...reading]);
    },
  };
}
