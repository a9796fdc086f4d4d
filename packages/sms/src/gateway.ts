/** One interface for every SMS gateway; the server picks an adapter by SMS_PROVIDER. */
export interface OutgoingSms {
  /** `+7XXXXXXXXXX` */
  to: string;
  text: string;
  /**
   * Idempotency key: every hand-over with the same key is the same message. A gateway that deduplicates
   * (`deduplicatesKeys`) sends it once however often it is handed over; one that does not ignores it.
   */
  key?: string;
}

export interface SentSms {
  /** The gateway's own id of the message, when it gives one. */
  providerId?: string;
  /** The gateway already had a message with this key: it accepted it before and sent nothing now. */
  duplicate?: boolean;
}

export interface Balance {
  amount: number;
  currency: string;
}

export interface SmsGateway {
  readonly name: string;
  /** true when a repeated `key` sends nothing (the message's first hand-over stands). */
  readonly deduplicatesKeys?: boolean;
  /** Resolves once the gateway accepted the message; rejects with SmsGatewayError when it did not. */
  send(message: OutgoingSms): Promise<SentSms>;
  /** The account balance, or null when the gateway does not report one. */
  balance(): Promise<Balance | null>;
}

export class SmsGatewayError extends Error {
  constructor(
    message: string,
    /** true when trying again later may succeed (network down, 5xx). */
    readonly isTemporary: boolean,
  ) {
    super(message);
  }
}

/** An SMS that came in (a device's reply), whatever gateway delivered it. */
export interface IncomingSms {
  from: string;
  text: string;
}
