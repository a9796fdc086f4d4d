import { createRtuSheet } from './rtu-family.ts';
import { cite } from './sources.ts';

/**
 * RTU5025: slots 001–999 (King Pigeon RTU5025 User Manual v1.5, p. 10, §6.2.0 note 2: "from 001~999"),
 * 4-digit password, numbers with time windows.
 */
export const rtu5025Sheet = createRtuSheet('RTU5025', 'RTU5025', 999, {
  capacitySource: cite('rtu5025Manual', 'p. 10, §6.2.0 note 2: "from 001~999"'),
});
