/**
 * Starts everything that talks to the devices in this process: the device worker (pg-boss), which listens to
 * the dependencies' wake-up (`deps.deviceWake`, lib/device-wake.ts), and, with the demo provider and DEVICE_SIM=on, the simulated devices
 * that answer through the inbound-SMS service. Used by main.ts and by the tests that run the real worker.
 */
import { randomUUID } from 'node:crypto';
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { DatabaseHandle } from '../db/database.ts';
import { attachDeviceSimulators, type SimulatorRegistry } from '../demo/simulator-registry.ts';
import type { Dependencies } from '../lib/dependencies.ts';
import { receiveInboundSms } from '../modules/sms-inbound/service.ts';
import { DeviceWorker, type DeviceWorkerOptions } from './device-worker.ts';

export interface DeviceProcessing {
  worker: DeviceWorker;
  simulators: SimulatorRegistry | null;
  stop(): Promise<void>;
}

export async function startDeviceProcessing(
  deps: Dependencies,
  handle: DatabaseHandle,
  options: DeviceWorkerOptions & { simulate?: boolean } = {},
): Promise<DeviceProcessing> {
  const simulate = options.simulate ?? deps.config.DEVICE_SIM === 'on';
  const simulators =
    simulate && deps.sms instanceof DemoSmsGateway
      ? attachDeviceSimulators(deps.sms, deps, (reply) => receiveInboundSms(deps, demoInbound(reply)), {
          delayMs: deps.config.DEVICE_SIM_DELAY_MS,
        })
      : null;
  deps.demoDevices = simulators;
  // Before the worker: it would time out the commands whose answers the last process never took in.
  if (simulators) {
    const answered = await simulators
      .answerInFlight()
      .catch((error) => deps.logger.error({ err: error }, 'simulated devices could not answer'));
    if (answered) deps.logger.info({ answered }, 'simulated devices answered the commands left in flight');
  }
  const worker = await DeviceWorker.start(deps, handle, options);
  deps.jobQueue = { running: () => worker.isRunning() };
  // Whatever was left open when the process last stopped is taken up now.
  void worker.sweep().catch((error) => deps.logger.error({ err: error }, 'device sweep failed'));
  return {
    worker,
    simulators,
    async stop() {
      deps.demoDevices = null;
      deps.jobQueue = undefined;
      await worker.stop();
    },
  };
}

/**
 * Each SMS a simulated device sends gets its own id, as a real gateway names what it receives: the demo
 * delivers each answer once, so the id only fills the same columns as the Android app's messageId does.
 */
function demoInbound(reply: { from: string; text: string }) {
  return { ...reply, gatewayId: { gateway: 'demo', messageId: randomUUID() } };
}
