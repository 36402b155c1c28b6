import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";

/** Who the local providers say is signing in (set by each test before it clicks the button). */
export interface ProviderIdentity {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  /** GitHub's `/user/emails` answer, when a test needs more than the one primary address. */
  githubEmails?: { email: string; primary: boolean; verified: boolean }[];
}

export interface LocalProviders {
  /** Environment that points the site's GitHub and Google sign-in at these servers. */
  env: Record<string, string>;
  setIdentity: (identity: ProviderIdentity) => void;
  stop: () => Promise<void>;
}

/**
 * Local stand-ins for GitHub and Google, started by a test: an OpenID Connect server (the
 * oauth2-mock-server package: discovery, authorize, token, JWKS, signed id_tokens) for Google, a
 * second one at GitHub's OAuth paths for GitHub, and a small HTTP server answering GitHub's
 * `/user` and `/user/emails` API. The site runs its real OAuth code against them.
 */
export async function startLocalProviders(host = "127.0.0.1"): Promise<LocalProviders> {
  let identity: ProviderIdentity = { id: "1", name: "Nobody", email: "nobody@example.com", emailVerified: true };

  const google = new OAuth2Server();
  await google.issuer.keys.generate("RS256");
  google.service.on("beforeTokenSigning", (token) => {
    token.payload.sub = identity.id;
    token.payload.email = identity.email;
    token.payload.email_verified = identity.emailVerified;
    token.payload.name = identity.name;
  });
  google.service.on("beforeUserinfo", (response) => {
    response.body = {
      sub: identity.id,
      email: identity.email,
      email_verified: identity.emailVerified,
      name: identity.name,
    };
  });
  await google.start(0, host);

  const github = new OAuth2Server(undefined, undefined, {
    endpoints: { authorize: "/login/oauth/authorize", token: "/login/oauth/access_token" },
  });
  await github.issuer.keys.generate("RS256");
  await github.start(0, host);

  const api = http.createServer((req, res) => {
    if (!req.headers.authorization?.startsWith("Bearer ")) {
      res.writeHead(401).end();
      return;
    }
    res.setHeader("Content-Type", "application/json");
    if (req.url === "/user") {
      res.end(
        JSON.stringify({
          id: Number(identity.id),
          login: identity.name.split(" ")[0]!.toLowerCase(),
          name: identity.name,
          email: null,
        }),
      );
    } else if (req.url === "/user/emails") {
      res.end(
        JSON.stringify(
          identity.githubEmails ?? [{ email: identity.email, primary: true, verified: identity.emailVerified }],
        ),
      );
    } else {
      res.writeHead(404).end("{}");
    }
  });
  await new Promise<void>((resolve) => api.listen(0, host, resolve));
  const apiUrl = `http://${host}:${(api.address() as AddressInfo).port}`;

  return {
    env: {
      GOOGLE_CLIENT_ID: "google-client",
      GOOGLE_CLIENT_SECRET: "google-secret",
      GOOGLE_DISCOVERY_URL: `${google.issuer.url}/.well-known/openid-configuration`,
      GITHUB_CLIENT_ID: "github-client",
      GITHUB_CLIENT_SECRET: "github-secret",
      GITHUB_OAUTH_URL: github.issuer.url!,
      GITHUB_API_URL: apiUrl,
    },
    setIdentity: (next) => {
      identity = next;
    },
    stop: async () => {
      await google.stop();
      await github.stop();
      await new Promise<void>((resolve) => api.close(() => resolve()));
    },
  };
}
