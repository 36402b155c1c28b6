import { afterAll, beforeAll } from "vitest";
import { startLocalProviders, type LocalProviders, type ProviderIdentity } from "./oauth-providers";
import { oauthRoundTrip } from "./oauth-round-trip";
import { startTestApp, type EngineName, type TestApp } from "./test-app";

/**
 * What the GitHub / Google sign-in suites share, for a `describe` of one engine: local OAuth/OIDC
 * providers and a test app whose client ids point at them (`state` holds both once started), the
 * browser's round trip through a provider, and a new person at the provider each call (`firstName`
 * and numbers from `idBase` keep the suites' people apart).
 */
export function oauthSuite(engine: EngineName, { firstName, idBase }: { firstName: string; idBase: number }) {
  const state = {} as { app: TestApp; providers: LocalProviders };
  let n = 0;
  beforeAll(async () => {
    state.providers = await startLocalProviders();
    state.app = await startTestApp(engine, { AUTH_RATE_LIMIT: "1000", ...state.providers.env });
  });
  afterAll(async () => {
    await state.app?.close();
    await state.providers?.stop();
  });

  const db = () => state.app.database.db;
  const roundTrip = (provider: "github" | "google", identity: ProviderIdentity, cookie = "") =>
    oauthRoundTrip(state.providers, provider, identity, cookie);
  const person = (prefix: string, verified = true): ProviderIdentity => ({
    id: String(idBase + ++n),
    name: `${firstName} ${prefix}`,
    email: `${prefix}-${engine}-${n}@example.com`,
    emailVerified: verified,
  });
  return { state, db, roundTrip, person };
}
