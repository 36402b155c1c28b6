/**
 * Two-factor recovery codes as people read, type, copy and save them (decision 0026). Pure: the
 * profile shows and saves them in the browser, the server makes and checks them.
 *
 * A code is ten characters in two groups of five ("7KQ4M-XW9TP"), drawn from capitals and digits
 * without the look-alikes 0/O and 1/I/L (and U, as Crockford's base32 leaves it out): 30 symbols,
 * about 49 bits per code. A typed code is accepted in any case, with or without its dash or with
 * spaces instead.
 */

export const RECOVERY_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
export const RECOVERY_CODE_LENGTH = 10;
export const RECOVERY_CODE_COUNT = 10;
/** At or below this many codes left, the profile suggests making new ones. */
export const RECOVERY_CODES_LOW = 3;

/** "abcde 12345", "ABCDE-12345", "abcde12345" → "ABCDE-12345"; null when it cannot be a recovery code. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.replace(/[\s\-‐‑–—]/g, "").toUpperCase();
  if (!/^[A-Z0-9]{10}$/.test(compact)) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

/** The name of the saved file: the product's name in lower case, e.g. "forgekit-recovery-codes.txt". */
export function recoveryCodesFileName(productName: string): string {
  const slug = productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${slug || "account"}-recovery-codes.txt`;
}

/** What the downloaded .txt file says: whose codes, when they were made, how to use them, the codes. */
export function recoveryCodesText({
  productName,
  email,
  madeOn,
  codes,
}: {
  productName: string;
  email: string;
  madeOn: string;
  codes: readonly string[];
}): string {
  return [
    `${productName} recovery codes for ${email}`,
    `Made on ${madeOn}. Making new codes stops these from working.`,
    "",
    "Each code signs you in once, in place of the code from your authenticator app.",
    "Keep this file somewhere safe, apart from your phone.",
    "",
    ...codes,
    "",
  ].join("\r\n");
}

/** The file as a data: address, so a plain link downloads it without scripts or another request. */
export function textDataUrl(text: string): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
}
