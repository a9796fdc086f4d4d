/**
 * Why the engine failed a command, as `device_commands.last_error` stores it: the device health
 * (health.ts), the relay's openings and the device checks read these back.
 */

/** failCommand's reason when the device answered that the password is wrong (settle.ts). */
export const DEVICE_REFUSED_PASSWORD = 'The device refused the password.';
/** failCommand's reason when the device answered that it did not understand the command (settle.ts). */
export const DEVICE_NOT_UNDERSTOOD = 'The device did not understand the command.';
/** failCommand's reason when a unit confirmed the barrier's device number on another barrier first (0030). */
export const DEVICE_PHONE_ELSEWHERE = 'The device number belongs to a confirmed unit of another barrier.';
