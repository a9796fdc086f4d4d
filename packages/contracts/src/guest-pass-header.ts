/**
 * The header by which the guest who used a pass proves it when he opens the link again (issue 32 item 4): the
 * `holder_key` the redeem answered, kept by his browser. A module without zod: the resident's barrier screen
 * loads the guest-pass calls, and a value imported from guest-passes.ts brought zod (23 KB) with it (issue 32
 * item 8).
 */
export const GUEST_PASS_HOLDER_HEADER = 'x-guest-pass-holder';
