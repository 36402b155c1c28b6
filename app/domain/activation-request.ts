/**
 * Offline activation (decision 0071): the activation request a desktop tool without a network writes,
 * which its owner uploads or pastes on the licenses page. Pure: the page's action reads the request
 * with these rules, and the unit tests try every malformed shape.
 */

import {
  isFingerprint,
  MACHINE_APP_VERSION_MAX_LENGTH,
  MACHINE_NAME_MAX_LENGTH,
  MACHINE_PLATFORM_MAX_LENGTH,
  machinesPhrase,
} from "./machines";
import { hasDisallowedCharacters } from "./text-input";

/** The `format` of an activation request this site reads. */
export const ACTIVATION_REQUEST_FORMAT = "activation-request/1";
/** The largest request read (a real one is well under 1 KB), in characters of text or bytes of a file. */
export const ACTIVATION_REQUEST_MAX_SIZE = 16 * 1024;
/** The longest license key a request may carry (the desktop API's limit). */
const MAX_KEY_LENGTH = 1024;
/** A nonce: 8 to 128 printable ASCII characters (the desktop API's rule). */
const NONCE = /^[\x20-\x7e]{8,128}$/;
/** An ISO 8601 moment with a time and a zone, e.g. 2026-11-28T09:30:00Z or …+01:00. */
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** Base64 or base64url text (the paste form of a request), whitespace removed. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** A well-formed activation request. */
export interface ActivationRequest {
  license_key: string;
  fingerprint: string;
  name: string;
  nonce: string;
  created_at: string;
  platform?: string;
  app_version?: string;
}

/** The codes of a request the site cannot read (a program may test them; a person reads the message). */
export type ActivationRequestProblem =
  | "activation_request_missing"
  | "activation_request_too_large"
  | "not_an_activation_request"
  | "activation_request_version"
  | "activation_request_invalid";

export type ActivationRequestField = keyof ActivationRequest;

export type ParsedActivationRequest =
  | { ok: true; request: ActivationRequest }
  | { ok: false; code: ActivationRequestProblem; message: string; field?: ActivationRequestField };

const FIELD_WORDS: Record<ActivationRequestField, string> = {
  license_key: "license key",
  fingerprint: "machine fingerprint",
  name: "computer name",
  nonce: "nonce",
  created_at: "creation time",
  platform: "platform",
  app_version: "app version",
};

/** What the page says for each problem with a request (docs/voice.md: what happened, then what to do). */
export const ACTIVATION_REQUEST_TEXTS = {
  missing: "Choose the activation request file, or paste its text.",
  tooLarge: `This file is too large to be an activation request (at most ${ACTIVATION_REQUEST_MAX_SIZE / 1024} KB). Choose the file the tool saved.`,
  notARequest: "This is not an activation request. Choose the file the tool saved, or paste its text unchanged.",
  version: "This activation request comes from a newer tool than this site reads. Contact support.",
  invalid: (field: ActivationRequestField) =>
    `The activation request has no valid ${FIELD_WORDS[field]}. Create a new request in the tool.`,
};

/** The codes of a readable request the site refuses (beside the license's own codes, as the desktop API names them). */
export type OfflineActivationRefusalCode =
  | ActivationRequestProblem
  | "license_not_found"
  | "other_license"
  | "activation_request_used"
  | "REVOKED"
  | "REFUNDED"
  | "REFUND_REQUESTED"
  | "TRIAL_EXPIRED"
  | "EXPIRED"
  | "MACHINE_LIMIT";

/** The form field the request's text is pasted into, and the file input's name. */
export const ACTIVATION_REQUEST_FIELD = "activation_request";
export const ACTIVATION_REQUEST_FILE_FIELD = "activation_request_file";

/** What the licenses page says about an offline activation, for the page and the tests. */
export const OFFLINE_ACTIVATION_TEXTS = {
  title: "Activate a computer without a network",
  intro:
    "In the tool on that computer, save an activation request. Upload the file here, or paste its text, then copy the activation file you get back to that computer.",
  fileLabel: "Activation request file",
  pasteLabel: "Or paste the request's text",
  submit: "Activate",
  notYours:
    "This activation request is for a license that is not on your account. Log in with the account that has it.",
  otherLicense: (shortId: string) =>
    `This activation request is for license ${shortId}. Upload it on that license's card.`,
  used: "This activation request was used already. Create a new one in the tool.",
  full: (limit: number) =>
    `This license is active on ${machinesPhrase(limit)}, as many as it allows. Deactivate one of them on the license's card, then upload the request again.`,
  notValid: {
    REVOKED: "This license was revoked, so it activates no machine. Contact support if you think this is a mistake.",
    REFUNDED: "This license was refunded, so it activates no machine.",
    REFUND_REQUESTED: "A refund was requested for this license, so it activates no machine.",
    TRIAL_EXPIRED: "This license's trial has ended, so it activates no machine. Choose a plan to go on.",
    EXPIRED: "This license has expired, so it activates no machine. Extend it, then upload the request again.",
  } as const,
  doneTitle: "Computer activated",
  done: (machine: string, shortId: string) => `${machine} is activated on license ${shortId}.`,
  doneNext: "Download the activation file and open it in the tool on that computer.",
  download: "Download activation file",
  noLongerActive:
    "This computer is no longer active on the license, so it has no activation file. Create a new request in the tool to activate it again.",
  notValidNow: "This license is not valid now, so it has no activation file.",
  fromCard:
    'Open the license on your licenses page and choose "Activate a computer without a network" in its machines.',
  back: "Back to your licenses",
  refusedTitle: "The computer was not activated",
  /** Under a refusal: its code, for a message to support (decision 0075). */
  refusalCode: (code: string) => `Nothing was stored. Code for support: ${code}`,
};

type Refusal = Extract<ParsedActivationRequest, { ok: false }>;
const refuse = (code: ActivationRequestProblem, message: string): Refusal => ({ ok: false, code, message });
const invalid = (field: ActivationRequestField): Refusal => ({
  ok: false,
  code: "activation_request_invalid",
  message: ACTIVATION_REQUEST_TEXTS.invalid(field),
  field,
});

/**
 * The text of an uploaded file: UTF-8 (a byte-order mark dropped), or UTF-16 when the file starts
 * with its byte-order mark (what Windows PowerShell 5 writes by default). Bytes that are not
 * text give text the parser refuses.
 */
export function activationRequestText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  return new TextDecoder("utf-8").decode(bytes);
}

/** The JSON the text holds, itself or as base64 (standard or url-safe, padded or not); undefined when neither. */
function jsonOf(text: string): unknown {
  try {
    if (text.startsWith("{")) return JSON.parse(text);
    const compact = text.replace(/\s+/g, "");
    if (!BASE64.test(compact)) return undefined;
    const standard = compact.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    if (standard.length % 4 === 1) return undefined;
    const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/** A one-line text field: a string without control characters, trimmed, 1 to `max` characters; else undefined. */
function line(value: unknown, max: number): string | undefined {
  if (typeof value !== "string" || hasDisallowedCharacters(value)) return undefined;
  const trimmed = value.trim();
  return trimmed.length >= 1 && trimmed.length <= max ? trimmed : undefined;
}

/** An optional field: absent or null is fine, anything else must be a valid line. */
function optionalLine(value: unknown, max: number): { ok: boolean; value?: string } {
  if (value === undefined || value === null) return { ok: true };
  const read = line(value, max);
  return read === undefined ? { ok: false } : { ok: true, value: read };
}

/** The fields of a request object, or the first one that is missing or malformed. */
function readFields(object: Record<string, unknown>): ParsedActivationRequest {
  const license_key = line(object.license_key, MAX_KEY_LENGTH);
  if (license_key === undefined) return invalid("license_key");
  if (!isFingerprint(object.fingerprint)) return invalid("fingerprint");
  const name = line(object.name, MACHINE_NAME_MAX_LENGTH);
  if (name === undefined) return invalid("name");
  if (typeof object.nonce !== "string" || !NONCE.test(object.nonce)) return invalid("nonce");
  const createdAt = object.created_at;
  if (typeof createdAt !== "string" || !MOMENT.test(createdAt) || Number.isNaN(Date.parse(createdAt)))
    return invalid("created_at");
  const platform = optionalLine(object.platform, MACHINE_PLATFORM_MAX_LENGTH);
  if (!platform.ok) return invalid("platform");
  const appVersion = optionalLine(object.app_version, MACHINE_APP_VERSION_MAX_LENGTH);
  if (!appVersion.ok) return invalid("app_version");
  const request: ActivationRequest = {
    license_key,
    fingerprint: object.fingerprint,
    name,
    nonce: object.nonce,
    created_at: createdAt,
    ...(platform.value ? { platform: platform.value } : {}),
    ...(appVersion.value ? { app_version: appVersion.value } : {}),
  };
  return { ok: true, request };
}

/**
 * Reads an activation request from the text of an uploaded file or of the paste field: the JSON
 * object itself or its base64. `format` must be "activation-request/1"; fields the site does not know
 * are ignored (a newer tool may add some). Every refusal names its code; a field's names the field.
 */
export function parseActivationRequest(input: string): ParsedActivationRequest {
  if (input.length > ACTIVATION_REQUEST_MAX_SIZE)
    return refuse("activation_request_too_large", ACTIVATION_REQUEST_TEXTS.tooLarge);
  const text = input.replace(/^\uFEFF/, "").trim();
  if (text === "") return refuse("activation_request_missing", ACTIVATION_REQUEST_TEXTS.missing);
  const value = jsonOf(text);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return refuse("not_an_activation_request", ACTIVATION_REQUEST_TEXTS.notARequest);
  const object = value as Record<string, unknown>;
  if (object.format !== ACTIVATION_REQUEST_FORMAT) {
    return typeof object.format === "string" && object.format.startsWith("activation-request/")
      ? refuse("activation_request_version", ACTIVATION_REQUEST_TEXTS.version)
      : refuse("not_an_activation_request", ACTIVATION_REQUEST_TEXTS.notARequest);
  }
  return readFields(object);
}
