import { createRtuSheet } from './rtu-family.ts';

/** RTU5024: the same command language as RTU5025, 200 numbers (slots 001–200). */
export const rtu5024Sheet = createRtuSheet('RTU5024', 'RTU5024', 200);
