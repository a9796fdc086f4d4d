/**
 * What happens to a simulated unit behind the server's back (`DeviceSimulator.drift`), and the ways a unit on
 * the wall can differ from its model's sheet (issue 42 item 6): the simulator plays them so that a test shows
 * a conformance run finds each difference and that the engine keeps such a unit right once it learnt it.
 */
import type { NumberFormat } from './numbers.ts';
import type { ClockOrder } from './sheet-types.ts';

/** The whitelist forms a simulated unit may answer differently (`DeviceDrift` `differ`). */
export type UnitForm = 'add' | 'addWindow' | 'delete' | 'setClock';

/** How a unit differs from its sheet (`DeviceDrift` `differ`); every field is optional. */
export interface UnitDifferences {
  /** Its own text for these whitelist forms (a template with the sheet's placeholders). */
  replies?: Partial<Record<UnitForm, string>>;
  /** It says nothing to these forms (it still does what they say). */
  silent?: UnitForm[];
  /**
   * The digit order it reads `{time}`, `{start}` and `{end}` in — its clock and its windows alike (the two
   * RTU clock forms: gate-opener.app `{pwd}T{yyMMddHHmm}#`, idealfit/gsm-relay `T` + `ddMMyyHHmm`).
   */
  clockOrder?: ClockOrder;
  /** How it stores a number it is given, so how its read-back writes it (`+7…`, `8…`, `007…`, `0007…`, `7…`). */
  numberFormat?: NumberFormat;
  /** Its own power-failure and restoration SMS (the sheets know only words such texts carry). */
  alarms?: { power_failure?: string; power_restored?: string };
  /**
   * It holds fewer numbers than the sheet says: an add to a slot above `capacity` is answered with the
   * format error (`overCapacity: 'error'`, the default) or not at all (`'silence'`), and nothing is stored.
   */
  capacity?: number;
  overCapacity?: 'error' | 'silence';
}

export type DeviceDrift =
  /** Someone wrote a number into a slot by hand (keypad, or an SMS from his own phone). */
  | { kind: 'manual_add'; slot: number; number: string }
  /** A slot lost its number. */
  | { kind: 'wipe_slot'; slot: number }
  /** The table and the clock were erased (a reset, or a replaced unit set up with the same password). */
  | { kind: 'factory_reset' }
  /**
   * The reset button: the password is the model's factory one again (`factoryPassword`), the numbers are
   * kept (issue 30: "A reset button restores password 1234 and keeps the numbers").
   */
  | { kind: 'password_reset' }
  /**
   * The next batch SMS (several numbers in one, `DeviceSheet.batch`) reaches the unit cut short: it takes the
   * first `keep` numbers only and answers their count (TELL "3 user(s) added" = three numbers taken).
   */
  | { kind: 'short_batch'; keep: number }
  /** The unit on the wall differs from its sheet from now on (issue 42); a later `differ` replaces the earlier. */
  | ({ kind: 'differ' } & UnitDifferences);
