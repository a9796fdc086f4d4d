/**
 * The device password never reaches the conversation log in clear. Every RTU template starts with the
 * password (`{pwd}A001#…`), so the leading password is masked; after it a secret (the password again, the
 * new password of a password change, a password echoed in a reply) is masked wherever it stands as a number
 * of its own: not inside a longer run of digits, so a phone number that happens to contain the same four
 * digits stays readable.
 */
export const PASSWORD_MASK = '****';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function maskSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  const known = [...new Set(secrets.filter((secret): secret is string => Boolean(secret)))].sort(
    (a, b) => b.length - a.length,
  );
  if (known.length === 0) return text;
  let head = '';
  let rest = text;
  for (const secret of known) {
    if (rest.startsWith(secret)) {
      head = PASSWORD_MASK;
      rest = rest.slice(secret.length);
      break;
    }
  }
  const standing = new RegExp(`(?<!\\d)(?:${known.map(escapeRegExp).join('|')})(?!\\d)`, 'g');
  return head + rest.replace(standing, PASSWORD_MASK);
}
