/**
 * The relay module's services (issue 16; docs/decisions/0019-relay.md): openings.ts (opening the gate from the
 * app and the admin screens) and holds.ts (the emergency hold-open); their queries are in repository.ts and
 * hold-repository.ts, what a settled relay command means in commands.ts.
 */

export { endHold, getHold, listHolds, startHold } from './holds.ts';
export { listOpenings, OPENING_LIMITS, type OpeningQuery, openGate } from './openings.ts';
