/**
 * Hooks by which a lower layer tells a higher one what happened, without importing it (docs/ARCHITECTURE.md,
 * the layers), registered once at start-up by buildApp:
 * - the device engine (src/engine/hooks.ts): the relay hears of its openings' commands, the device checks
 *   receive their readings, a conformance run hears of its steps and takes the unit's texts in its power step;
 * - auth (modules/auth/login-hooks.ts): a login claims the invitations waiting for its number.
 * Here, above the engine and every module, so that each registration is one line and nothing below imports up.
 */
import { registerInvitationClaims } from './modules/access-requests/login-hooks.ts';
import { registerConformancePersonHooks } from './modules/conformance/person-steps.ts';
import { registerConformanceHooks } from './modules/conformance/steps.ts';
import { registerDeviceCheckHooks } from './modules/device-checks/service.ts';
import { registerRelayDeviceHooks } from './modules/relay/commands.ts';

export function registerDomainHooks(): void {
  registerRelayDeviceHooks();
  registerDeviceCheckHooks();
  registerConformanceHooks();
  registerConformancePersonHooks();
  registerInvitationClaims();
}
