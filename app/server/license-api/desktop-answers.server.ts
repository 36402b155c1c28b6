import { parseJsonBody, readNonce, readQuery, readValidateInput } from "./api-input.server";
import { countAndFind } from "./count-and-find.server";
import { signingKeys } from "./signing.server";
import { validateLicense } from "./validate-license.server";

/**
 * The desktop API's two most frequent answers, decided once for both transports: the listener's fast
 * path (server/api-fast-path.ts) and Express (server/api-v1.ts) read the request, call these and
 * send what they return; only how the bytes arrive and leave differs (decision 0058). A refused input
 * throws ApiInputError, which each transport's error handler answers 400 the same way.
 */

/** What a transport keeps of one request while an answer is decided (Express: `res.locals`). */
export interface DesktopRequestState {
  /** The request's nonce, once read: every later answer, errors included, echoes it. */
  apiNonce?: string;
  /** A key path's client IP is still to be counted (with the key, or alone should the request end first). */
  ipDeferred?: boolean;
}

/** An answer: the status and body, or a rate limit's 429 (`retryAfter` seconds). */
export type DesktopAnswer = { status: 200; body: Record<string, unknown> } | { status: 429; retryAfter: number };

/**
 * POST /api/v1/licenses/validate from its body (as read within the API's limit): the nonce first (so
 * every later error echoes it), the input checked, the client IP and the key counted together with the
 * license looked up (decision 0048), the signed-to-be answer.
 */
export async function validateAnswer(
  raw: Buffer,
  ip: string,
  state: DesktopRequestState,
  now = new Date(),
): Promise<DesktopAnswer> {
  const body = parseJsonBody(raw);
  state.apiNonce = readNonce(body.nonce, { required: true });
  const input = readValidateInput(body);
  // A key path's IP is always left to its key's count: both, with the lookup.
  state.ipDeferred = false;
  const { limited, retryAfter, found } = await countAndFind(ip, input.key, input.fingerprint);
  if (limited) return { status: 429, retryAfter };
  return { status: 200, body: { ...(await validateLicense(input, now, found)) } };
}

/** GET /api/v1/keys (its client IP counted already): the query checked, the optional nonce, the published keys. */
export function keysAnswer(url: string, state: DesktopRequestState): DesktopAnswer {
  const params = readQuery(url);
  state.apiNonce = readNonce(params.get("nonce"), { required: false });
  return { status: 200, body: { keys: signingKeys().published } };
}
