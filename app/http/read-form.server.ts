import { failure } from "./action-reply.server";
import { hasDisallowedCharacters, NOT_ALLOWED_CHARACTERS_MESSAGE } from "~/domain/text-input";

/** Fields whose text may span lines (tab, CR and LF allowed). */
const MULTI_LINE_FIELDS = new Set(["release_notes", "billing_address", "activation_request"]);
/**
 * Fields checked by their own rule instead: a redirect target with control characters is not an
 * error the user can fix, so sign-in goes on and safeRedirect falls back to "/".
 */
const OWN_RULE_FIELDS = new Set(["redirectTo"]);

const refuse = (description: string) => failure(400, { description, formError: false });

/**
 * The request's form fields; a body that is not a form (a script posting JSON or plain text)
 * answers 400 with a message instead of failing with a 500, and so does a field holding a
 * control character (NUL, …) or a lone surrogate. Every action reads its form through here.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw refuse("The form could not be read. Please try again.");
  }
  for (const [name, value] of form) {
    if (typeof value !== "string" || OWN_RULE_FIELDS.has(name)) continue;
    if (hasDisallowedCharacters(value, { multiline: MULTI_LINE_FIELDS.has(name) }) || hasDisallowedCharacters(name)) {
      throw refuse(NOT_ALLOWED_CHARACTERS_MESSAGE);
    }
  }
  return form;
}
