/**
 * The device worker's wake-up (issue 44 part 2): built with the dependencies, before the app and the worker, and
 * given to both. A transaction that wrote device commands calls `notify` once it has committed (as
 * `deps.notifyDeviceCommands`); each device worker started on these dependencies listens from its start to its stop
 * (jobs/device-worker.ts). A wake-up nobody listens to is dropped: the commands wait in the database, and a worker's
 * sweep at its start takes them up.
 */
export type DeviceWakeListener = (barrierIds: number[]) => void;

export class DeviceWake {
  private readonly listeners = new Set<DeviceWakeListener>();

  /** Wakes every listening worker for these barriers. */
  readonly notify = (barrierIds: number[]): void => {
    for (const listener of this.listeners) listener(barrierIds);
  };

  /** A worker listens from its start; the function returned ends it (the worker's stop). */
  listen(listener: DeviceWakeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** The wake-up and the function the services call, as the dependencies carry them (built together). */
export function deviceWakeUp(): {
  deviceWake: DeviceWake;
  notifyDeviceCommands: (barrierIds: number[]) => void;
} {
  const deviceWake = new DeviceWake();
  return { deviceWake, notifyDeviceCommands: deviceWake.notify };
}
