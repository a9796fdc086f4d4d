import { createRtuSheet } from './rtu-family.ts';

/**
 * RTU5024 with the RTU502x firmware (the `{pwd}A{slot}#…` language): slots 001–200, as the third-party
 * reference and the hash-style manual give them (gate-opener.app/hardware/rtu5024/commands: "slot
 * (001-200)"; manualshive.com/en/manual/langjushan-tech/rtu5024/3550028 p. 7: "from 001~200"). Units with the
 * hash-style firmware (`1234#TEL…#001#`) speak another language and are not this sheet.
 */
export const rtu5024Sheet = createRtuSheet('RTU5024', 'RTU5024', 200);
