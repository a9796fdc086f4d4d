/**
 * Production refuses the demo parts (issue 40 item 5, docs/decisions/0031): with NODE_ENV=production — set by
 * `npm run start:prod`, deploy/propusk.service and the image — the demo SMS provider (its codes go to the log
 * and a file) and the device simulator (it answers in place of the real units) stop the start, naming the
 * variable, unless the operator sets ALLOW_DEMO=on; then every start logs a warning. `npm start` (the runtime
 * contract's demo) does not set NODE_ENV=production and is untouched.
 */
import type { Config } from './config.ts';

export interface DemoParts {
  /** One line per demo part in use: the variable, its value and what it does. */
  parts: string[];
}

/** The demo parts this configuration would run. */
export function demoPartsOf(
  config: Pick<Config, 'SMS_PROVIDER' | 'DEVICE_SIM' | 'SMS_GATEWAYS' | 'smsGateways'>,
): DemoParts {
  const parts: string[] = [];
  if (config.SMS_PROVIDER === 'demo')
    parts.push(
      'SMS_PROVIDER=demo: no SMS leaves the machine; the login codes are written to the log and SMS_FILE',
    );
  if (config.SMS_GATEWAYS !== undefined) {
    const demo = config.smsGateways.filter((gateway) => gateway.provider === 'demo').map((g) => g.name);
    if (demo.length > 0)
      parts.push(`SMS_GATEWAYS: the gateway(s) ${demo.join(', ')} use the demo provider (nothing is sent)`);
  }
  if (config.DEVICE_SIM === 'on')
    parts.push('DEVICE_SIM=on: the device simulator answers in place of the real units; set DEVICE_SIM=off');
  return { parts };
}

/**
 * What a start with this configuration does about the demo parts: `refuse` (the message to print), `warn`
 * (the message to log at every start) or nothing.
 */
export function judgeDemoInProduction(
  config: Pick<
    Config,
    'NODE_ENV' | 'ALLOW_DEMO' | 'SMS_PROVIDER' | 'DEVICE_SIM' | 'SMS_GATEWAYS' | 'smsGateways'
  >,
): { refuse: string } | { warn: string } | null {
  if (config.NODE_ENV !== 'production') return null;
  const { parts } = demoPartsOf(config);
  if (parts.length === 0) return null;
  if (config.ALLOW_DEMO)
    return {
      warn: `NODE_ENV=production with demo parts, allowed by ALLOW_DEMO=on: ${parts.join('; ')}`,
    };
  return {
    refuse: [
      'Refusing to start: NODE_ENV=production with demo parts.',
      ...parts.map((part) => `  ${part}`),
      'Set a real SMS_PROVIDER (android or smsru, see README "Production") and DEVICE_SIM=off,',
      'or ALLOW_DEMO=on to run the demo in production on purpose (a warning is logged at every start).',
    ].join('\n'),
  };
}
