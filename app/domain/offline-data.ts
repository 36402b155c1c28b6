import { z } from "zod";
import { hasDisallowedCharacters, NOT_ALLOWED_CHARACTERS_MESSAGE } from "./text-input";

/**
 * The offline data a person types on the licenses page (docs/decisions/0024): a Windows username
 * and a computer name, checked by the same rules in the dialog and on the server.
 *
 * - Windows username: at most 20 characters, none of \ / [ ] : ; | = , + * ? < > " (the rules
 *   Windows applies to account names). `whoami` prints `DOMAIN\name`, so one domain prefix is
 *   accepted: the domain follows the computer-name rule and the name after the backslash the
 *   username rule.
 * - Computer name: at most 15 characters, letters, digits and hyphens (a NetBIOS name).
 * - Both are trimmed; empty means not set, but at least one of the two must be given.
 */
export const USERNAME_MAX = 20;
export const COMPUTER_NAME_MAX = 15;

export const OFFLINE_DATA_MESSAGES = {
  usernameTooLong: `A Windows username has at most ${USERNAME_MAX} characters.`,
  usernameCharacters: 'A Windows username cannot contain \\ / [ ] : ; | = , + * ? < > or ".',
  usernameDomain:
    "Write the domain as DOMAIN\\name: a domain has at most 15 letters, digits or hyphens, and the name follows it.",
  usernameDots: "A Windows username cannot consist of dots and spaces only.",
  computerTooLong: `A computer name has at most ${COMPUTER_NAME_MAX} characters.`,
  computerCharacters: "A computer name uses only letters, digits and hyphens.",
  computerDigits: "A computer name cannot consist of digits only.",
  bothEmpty: "Enter a Windows username, a computer name, or both.",
} as const;
const M = OFFLINE_DATA_MESSAGES;

/** The rules in words, for the desktop API's contract (its OpenAPI document and docs/desktop-api.md). */
export const OFFLINE_DATA_RULES = {
  windows_username:
    `The licenses page's rule: at most ${USERNAME_MAX} characters, none of \\ / [ ] : ; | = , + * ? < > ", not only ` +
    "dots and spaces; DOMAIN\\name is accepted (the domain follows the computer-name rule).",
  computer_name: `The licenses page's rule: at most ${COMPUTER_NAME_MAX} letters, digits and hyphens, not digits only.`,
} as const;

const USERNAME_FORBIDDEN = /[\\/[\]:;|=,+*?<>"]/;
const COMPUTER_NAME = /^[A-Za-z0-9-]+$/;

/** The problem with a computer name (already trimmed, not empty), or null when it is fine. */
export function computerNameProblem(value: string): string | null {
  if (value.length > COMPUTER_NAME_MAX) return OFFLINE_DATA_MESSAGES.computerTooLong;
  if (!COMPUTER_NAME.test(value)) return OFFLINE_DATA_MESSAGES.computerCharacters;
  if (/^[0-9]+$/.test(value)) return OFFLINE_DATA_MESSAGES.computerDigits;
  return null;
}

/** The problem with a Windows username (already trimmed, not empty), or null when it is fine. */
export function windowsUsernameProblem(value: string): string | null {
  const slash = value.indexOf("\\");
  if (slash !== -1) {
    const domain = value.slice(0, slash);
    const name = value.slice(slash + 1);
    if (domain === "" || name === "" || computerNameProblem(domain) !== null)
      return OFFLINE_DATA_MESSAGES.usernameDomain;
    return accountNameProblem(name);
  }
  return accountNameProblem(value);
}

/** The account name itself (after any domain). */
function accountNameProblem(value: string): string | null {
  if (value.length > USERNAME_MAX) return OFFLINE_DATA_MESSAGES.usernameTooLong;
  if (USERNAME_FORBIDDEN.test(value)) return OFFLINE_DATA_MESSAGES.usernameCharacters;
  if (/^[.\s]+$/.test(value)) return OFFLINE_DATA_MESSAGES.usernameDots;
  return null;
}

export interface OfflineDataInput {
  windows_username: string;
  computer_name: string;
}

export type OfflineDataErrors = Partial<Record<"windows_username" | "computer_name" | "form", string>>;

/** Longer values are refused outright, before any other rule looks at them. */
const READ_MAX = 256;

/** Control characters first, then a value too long to read: the field's message, or null. */
function unreadable(key: keyof OfflineDataInput, value: string): string | null {
  if (hasDisallowedCharacters(value)) return NOT_ALLOWED_CHARACTERS_MESSAGE;
  if (value.length > READ_MAX) return key === "windows_username" ? M.usernameTooLong : M.computerTooLong;
  return null;
}

/**
 * The one rule for offline data, used by the licenses page (offlineDataSchema, in the dialog and
 * its action) and by the desktop API's activation (readOfflineData): checks both values as typed
 * and gives the trimmed values (null for empty) when they are fine, or a message per field (and
 * `form` when both are empty). Control characters are refused as in every text field.
 */
export function checkOfflineData(
  input: OfflineDataInput,
):
  | { ok: true; windows_username: string | null; computer_name: string | null }
  | { ok: false; errors: OfflineDataErrors } {
  const unread: OfflineDataErrors = {};
  for (const key of ["windows_username", "computer_name"] as const) {
    const problem = unreadable(key, input[key]);
    if (problem) unread[key] = problem;
  }
  if (Object.keys(unread).length > 0) return { ok: false, errors: unread };
  const username = input.windows_username.trim();
  const computer = input.computer_name.trim();
  if (username === "" && computer === "") return { ok: false, errors: { form: OFFLINE_DATA_MESSAGES.bothEmpty } };
  const errors: OfflineDataErrors = {};
  const usernameProblem = username === "" ? null : windowsUsernameProblem(username);
  const computerProblem = computer === "" ? null : computerNameProblem(computer);
  if (usernameProblem) errors.windows_username = usernameProblem;
  if (computerProblem) errors.computer_name = computerProblem;
  if (usernameProblem || computerProblem) return { ok: false, errors };
  return { ok: true, windows_username: username || null, computer_name: computer || null };
}

/** The licenses form's schema (dialog and server): checkOfflineData's rules and messages. */
export const offlineDataSchema = z
  .object({ windows_username: z.string().default(""), computer_name: z.string().default("") })
  .transform((input, ctx) => {
    const checked = checkOfflineData(input);
    if (!checked.ok) {
      for (const [key, message] of Object.entries(checked.errors)) {
        ctx.addIssue({ code: "custom", path: key === "form" ? [] : [key], message });
      }
      return z.NEVER;
    }
    return { windows_username: checked.windows_username, computer_name: checked.computer_name };
  });

/**
 * What the confirmation must say about a value left empty: the values are set once, so an empty
 * one can never be added later (the card's Set button goes once either is saved). Null when both
 * are given.
 */
export function emptyOfflineValueWarning(values: {
  windows_username: string | null;
  computer_name: string | null;
}): string | null {
  if (values.windows_username === null && values.computer_name !== null)
    return "The Windows username stays empty: it can never be added to this license later.";
  if (values.computer_name === null && values.windows_username !== null)
    return "The computer name stays empty: it can never be added to this license later.";
  return null;
}
