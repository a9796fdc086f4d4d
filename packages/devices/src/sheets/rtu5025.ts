import { createRtuSheet } from './rtu-family.ts';

/** RTU5025: 999 numbers, slots 001–999, 4-digit password, numbers with time windows. */
export const rtu5025Sheet = createRtuSheet('RTU5025', 'RTU5025', 999);
