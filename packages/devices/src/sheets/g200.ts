import { createRtuSheet } from './rtu-family.ts';
import { cite } from './sources.ts';

/**
 * Badodo G200, an RTU clone: the RTU5025 forms (`1234P`, `1234A002#044777777#`, `1234A005#`, `1234AL005#010#`,
 * `1234A005##`, `ALL#`, `AUT#`, `GOT010#`, `CC`, `DD`: its manual, page 4), 200 users ("Total 200 users:
 * 001 - 200", slot 001 is the admin) and a relay time of 000–900 seconds. Its manual prints no reply texts:
 * the replies are the RTU5025 ones, not verified on a G200.
 */
export const g200Sheet = createRtuSheet('G200', 'Badodo G200', 200, {
  capacitySource: cite('badodoG200', 'p. 4, "Total 200 users: 001 - 200"'),
  maxRelaySeconds: 900,
  relayTimeSource: cite('badodoG200', 'p. 4, example 1234GOT010#, "Relay time: 000 - 900"'),
  cloneSource: cite('badodoG200', 'p. 4 (the same form)'),
});
