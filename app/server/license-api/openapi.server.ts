import { getEnv } from "../env.server";
import { MAX_KEY_LENGTH, MAX_MACHINE_LENGTH, OFFLINE_DATA_RULES as RULES } from "./api-input.server";
import { LICENSE_FILE_REFRESH_DAYS } from "./license-file.server";
import { CODE_DETAILS, LICENSE_CODES } from "./validate-license.server";

/** GET /api/v1/openapi.json: the desktop API's contract (issue 12) as an OpenAPI 3.1 document. */
export function openApiDocument(): Record<string, unknown> {
  const env = getEnv();
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const json = (schema: unknown) => ({ "application/json": { schema } });
  const signed = { Signature: { $ref: "#/components/headers/Signature" } };
  const errors = {
    "400": { $ref: "#/components/responses/BadRequest" },
    "413": { $ref: "#/components/responses/TooLarge" },
    "429": { $ref: "#/components/responses/TooManyRequests" },
  };
  const isoTime = { type: "string", format: "date-time" };
  const nonceParameter = {
    name: "nonce",
    in: "query",
    required: false,
    description: "Echoed in the answer when given.",
    schema: ref("Nonce"),
  };
  const machineValue = (required: string) => ({
    type: "string",
    minLength: required ? 1 : 0,
    maxLength: MAX_MACHINE_LENGTH,
    description: `${required}Trimmed; compared case-insensitively. No control characters.`,
  });
  return {
    openapi: "3.1.0",
    info: {
      title: `${env.PRODUCT_NAME} desktop API`,
      version: "1",
      description:
        "License validation, activation, signed license files and the update check for the desktop tool. " +
        "Every answer (errors included) is JSON whose exact bytes are signed with Ed25519: verify the Signature " +
        "header with the public key from /api/v1/keys whose kid it names. Every answer of the license and update " +
        "endpoints carries issued_at and echoes the request's nonce. No cookies are read or set. Requests are " +
        `limited to ${env.API_RATE_LIMIT} a minute per client IP.`,
    },
    servers: [{ url: `${env.PUBLIC_URL}/api/v1` }],
    paths: {
      "/keys": {
        get: {
          operationId: "listKeys",
          summary: "The public keys that sign answers and license files (several during a rotation).",
          parameters: [nonceParameter],
          responses: {
            "200": { description: "The published keys.", headers: signed, content: json(ref("Keys")) },
            ...errors,
          },
        },
      },
      "/licenses/validate": {
        post: {
          operationId: "validateLicense",
          summary: "The current state of the license a key (any key the site ever issued for it) belongs to.",
          requestBody: { required: true, content: json(ref("ValidateRequest")) },
          responses: {
            "200": {
              description: "The license's state: every code is a 200.",
              headers: signed,
              content: json(ref("Validation")),
            },
            ...errors,
          },
        },
      },
      "/licenses/activate": {
        post: {
          operationId: "activateLicense",
          summary:
            "Binds an unbound, valid license to the machine (once, as on the licenses page; a new key is issued). " +
            "The same machine again succeeds; another one gets MACHINE_MISMATCH.",
          requestBody: { required: true, content: json(ref("ActivateRequest")) },
          responses: {
            "200": {
              description: "Like validate, plus the license file while valid.",
              headers: signed,
              content: json(ref("Activation")),
            },
            ...errors,
          },
        },
      },
      "/licenses/file": {
        get: {
          operationId: "getLicenseFile",
          summary: "A signed license file for offline use, for a license valid now.",
          parameters: [
            { name: "key", in: "query", required: true, schema: { type: "string", maxLength: MAX_KEY_LENGTH } },
            nonceParameter,
          ],
          responses: {
            "200": { description: "The license file.", headers: signed, content: json(ref("LicenseFileAnswer")) },
            "409": {
              description: "The license is not valid now (or no license has the key): no file.",
              headers: signed,
              content: json(ref("Refusal")),
            },
            ...errors,
          },
        },
      },
      "/updates/latest": {
        get: {
          operationId: "latestUpdate",
          summary: "The newest release and whether it is newer than the tool's version (semantic-version order).",
          parameters: [
            {
              name: "current",
              in: "query",
              required: true,
              description: "The tool's version: 1.2.3, 1.2, v1.2.3 or 1.2.3-beta.1.",
              schema: { type: "string", maxLength: 64 },
            },
            nonceParameter,
          ],
          responses: {
            "200": { description: "The newest release.", headers: signed, content: json(ref("Update")) },
            ...errors,
          },
        },
      },
      "/openapi.json": {
        get: {
          operationId: "openApi",
          summary: "This document.",
          responses: { "200": { description: "OpenAPI 3.1.", headers: signed, content: json({ type: "object" }) } },
        },
      },
    },
    components: {
      headers: {
        Signature: {
          description:
            'keyid="<kid>", algorithm="ed25519", signature="<base64>": an Ed25519 signature over the exact bytes of ' +
            "the body, by the key /api/v1/keys lists under that kid.",
          required: true,
          schema: {
            type: "string",
            pattern: '^keyid="[A-Za-z0-9_-]{16}", algorithm="ed25519", signature="[A-Za-z0-9+/]+={0,2}"$',
          },
        },
      },
      responses: {
        BadRequest: {
          description: "A malformed request (not JSON, a wrong type, a missing field, control characters…).",
          headers: signed,
          content: json(ref("InputError")),
        },
        TooLarge: {
          description: "The request body is larger than 64 KB.",
          headers: signed,
          content: json(ref("Error")),
        },
        TooManyRequests: {
          description: "Too many requests from this client IP this minute.",
          headers: { ...signed, "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } },
          content: json(ref("Error")),
        },
      },
      schemas: {
        Nonce: {
          type: "string",
          minLength: 8,
          maxLength: 128,
          pattern: "^[\\x20-\\x7e]{8,128}$",
          description: "Printable ASCII, chosen by the tool for each request; echoed in the answer.",
        },
        IssuedAt: { ...isoTime, description: "When the server made the answer." },
        Code: {
          type: "string",
          enum: [...LICENSE_CODES],
          description:
            "Decided in this order: " + LICENSE_CODES.map((code) => `${code} (${CODE_DETAILS[code]})`).join(", "),
        },
        Keys: {
          type: "object",
          required: ["keys", "issued_at"],
          properties: {
            keys: {
              type: "array",
              items: {
                type: "object",
                required: ["kid", "algorithm", "public_key_pem"],
                properties: {
                  kid: {
                    type: "string",
                    description: "The first 16 characters of base64url(SHA-256(the key's SPKI DER)).",
                  },
                  algorithm: { const: "ed25519" },
                  public_key_pem: { type: "string", description: "SPKI PEM." },
                },
              },
            },
            nonce: ref("Nonce"),
            issued_at: ref("IssuedAt"),
          },
        },
        ValidateRequest: {
          type: "object",
          required: ["key", "nonce"],
          properties: {
            key: {
              type: "string",
              minLength: 1,
              maxLength: MAX_KEY_LENGTH,
              description: "Any key issued for the license.",
            },
            nonce: ref("Nonce"),
            windows_username: machineValue(""),
            computer_name: machineValue(""),
          },
        },
        ActivateRequest: {
          type: "object",
          required: ["key", "nonce", "windows_username", "computer_name"],
          properties: {
            key: { type: "string", minLength: 1, maxLength: MAX_KEY_LENGTH },
            nonce: ref("Nonce"),
            windows_username: machineValue(`Required. ${RULES.windows_username} 400 with its message otherwise. `),
            computer_name: machineValue(`Required. ${RULES.computer_name} 400 with its message otherwise. `),
          },
        },
        License: {
          type: "object",
          required: [
            "id",
            "license_type",
            "status",
            "start_date",
            "end_date",
            "is_trial",
            "trial_ends_at",
            "auto_renew",
            "windows_username",
            "computer_name",
          ],
          properties: {
            id: { type: "string", format: "uuid" },
            license_type: { type: "string", enum: ["trial", "tester", "monthly", "6_months", "yearly"] },
            status: { type: "string", enum: ["active", "revoked", "refund_requested", "refunded"] },
            start_date: isoTime,
            end_date: isoTime,
            is_trial: { type: "boolean" },
            trial_ends_at: { oneOf: [isoTime, { type: "null" }] },
            auto_renew: { type: "boolean" },
            windows_username: { type: ["string", "null"] },
            computer_name: { type: ["string", "null"] },
            license_key: { type: "string", description: "The license's current key; only while valid." },
            payment_past_due: {
              type: "boolean",
              description: "A renewal payment failed: the license works until grace_ends_at unless it is paid.",
            },
            grace_ends_at: {
              oneOf: [isoTime, { type: "null" }],
              description: "While payment_past_due: when the license stops working (end_date + 14 days).",
            },
          },
        },
        Validation: {
          type: "object",
          required: ["valid", "code", "detail", "license", "nonce", "issued_at"],
          properties: {
            valid: { type: "boolean" },
            code: ref("Code"),
            detail: { type: "string", description: "A short English sentence." },
            license: { oneOf: [ref("License"), { type: "null" }], description: "null for NOT_FOUND." },
            nonce: ref("Nonce"),
            issued_at: ref("IssuedAt"),
          },
        },
        Activation: {
          allOf: [
            ref("Validation"),
            {
              type: "object",
              required: ["license_file"],
              properties: { license_file: { oneOf: [ref("LicenseFile"), { type: "null" }] } },
            },
          ],
        },
        LicenseFile: {
          type: "object",
          required: ["format", "kid", "payload", "signature"],
          properties: {
            format: { const: "license/1" },
            kid: { type: "string" },
            payload: {
              type: "string",
              description:
                "base64url of the JSON {license_id, email, license_type, windows_username, computer_name, start_date, " +
                `end_date, is_trial, issued_at, refresh_by}; refresh_by is issued_at + ${LICENSE_FILE_REFRESH_DAYS} days, ` +
                "never past end_date (nor a trial's end).",
            },
            signature: { type: "string", description: "base64 Ed25519 signature over the ASCII bytes of payload." },
          },
        },
        LicenseFileAnswer: {
          allOf: [
            ref("LicenseFile"),
            {
              type: "object",
              required: ["issued_at"],
              properties: { nonce: ref("Nonce"), issued_at: ref("IssuedAt") },
            },
          ],
        },
        Refusal: {
          type: "object",
          required: ["error", "code", "issued_at"],
          properties: { error: { type: "string" }, code: ref("Code"), nonce: ref("Nonce"), issued_at: ref("IssuedAt") },
        },
        Update: {
          type: "object",
          required: ["latest", "update_available", "issued_at"],
          properties: {
            latest: {
              oneOf: [
                {
                  type: "object",
                  required: ["version", "title", "release_date", "notes", "download_url"],
                  properties: {
                    version: { type: "string" },
                    title: { type: ["string", "null"] },
                    release_date: { type: "string", format: "date" },
                    notes: { type: "array", items: { type: "string" } },
                    download_url: { type: "string", format: "uri" },
                  },
                },
                { type: "null" },
              ],
              description: "null when there is no release.",
            },
            update_available: { type: "boolean" },
            nonce: ref("Nonce"),
            issued_at: ref("IssuedAt"),
          },
        },
        Error: {
          type: "object",
          required: ["error", "issued_at"],
          properties: { error: { type: "string" }, nonce: ref("Nonce"), issued_at: ref("IssuedAt") },
        },
        InputError: {
          type: "object",
          required: ["error", "field", "issued_at"],
          properties: {
            error: { type: "string" },
            field: { type: "string", description: "The field or query parameter at fault (body: the body itself)." },
            nonce: ref("Nonce"),
            issued_at: ref("IssuedAt"),
          },
        },
      },
    },
  };
}
