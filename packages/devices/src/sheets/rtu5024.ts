import { createRtuSheet } from './rtu-family.ts';
import { cite } from './sources.ts';

/**
 * RTU5024 with the RTU502x firmware (the `{pwd}A{slot}#…` language): slots 001–200, as the third-party
 * reference and the hash-style manual give them (gate-opener.app/hardware/rtu5024/commands: "slot
 * (001-200)"; manualshive.com/en/manual/langjushan-tech/rtu5024/3550028 p. 7: "from 001~200"). Units with the
 * hash-style firmware (`1234#TEL…#001#`) speak another language: their sheet is `rtu5024-hash.ts`.
 */
export const rtu5024Sheet = createRtuSheet('RTU5024', 'RTU5024', 200, {
  capacitySource: `${cite('gateOpenerCommands', '"Up to 200 authorized numbers (positions 001-200)"')}; ${cite('rtu5024HashManual', 'p. 7, "from 001~200"')}`,
  windowsFromFirmware: {
    version: '1.7',
    source: cite(
      'gateOpenerTemporaryAccess',
      '"on firmware v1.7+ use time-limited access with automatic expiration"',
    ),
  },
});
