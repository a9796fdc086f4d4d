/**
 * The hooks by which a lower layer tells a higher one what happened, without importing it (docs/ARCHITECTURE.md,
 * the layers), built once with the dependencies, before the app and the device worker (main.ts, cli.ts, the
 * test app), and read from them (issue 44 part 2): nothing is registered at run time.
 * - the device engine's (`EngineHooks`, src/engine/hooks.ts): the relay hears of its openings' commands, the
 *   device checks receive their readings, a conformance run hears of its steps and takes the unit's texts in
 *   its power step;
 * - auth's (`LoginHook`, modules/auth/login-hooks.ts): a login claims the invitations waiting for its number.
 * Here, above the engine and every module, so that each hook is one line and nothing below imports up.
 */
import type { EngineHooks } from './engine/hooks.ts';
import type { Dependencies } from './lib/dependencies.ts';
import { claimInvitationsAtLogin } from './modules/access-requests/login-hooks.ts';
import type { LoginHook } from './modules/auth/login-hooks.ts';
import { captureUnitText } from './modules/conformance/person-steps.ts';
import { recordStep } from './modules/conformance/steps.ts';
import { recordReadReply } from './modules/device-checks/service.ts';
import { relayCommandSettled } from './modules/relay/commands.ts';

export function buildEngineHooks(): EngineHooks {
  return {
    commandSettled: [relayCommandSettled, recordStep],
    readReply: recordReadReply,
    unitText: captureUnitText,
  };
}

export function buildLoginHooks(): LoginHook[] {
  return [claimInvitationsAtLogin];
}

/** Both, as the dependencies carry them: `{ ...domainHooks() }` where the dependencies are built. */
export function domainHooks(): Pick<Dependencies, 'engineHooks' | 'loginHooks'> {
  return { engineHooks: buildEngineHooks(), loginHooks: buildLoginHooks() };
}
