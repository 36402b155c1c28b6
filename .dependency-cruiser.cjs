// The layer rules of docs/architecture.md (decision 0032), checked by `npm run deps` and in `npm test`.
// From the ground up: app/domain → app/lib → app/emails → app/server | app/components → app/http (the
// routes' HTTP helpers) → app/routes (with root.tsx, entry.server.tsx) → server/ (the HTTP listener) →
// scripts/, bench/, tests/. A folder imports
// its own floor and the floors under it, never one above; and no file imports itself back through others.

/** Every floor above `app/server/` (and `app/components/`, which stands beside it). */
const ABOVE_APP_SERVER = [
  "^app/http/",
  "^app/routes/",
  "^app/routes[.]ts$",
  "^app/root[.]tsx$",
  "^app/entry[.]",
  "^server/",
  "^scripts/",
  "^bench/",
  "^tests/",
];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Files that import each other in a loop: move what both need into a file of its own.",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "app/domain holds the rules as plain functions and data: it imports app/domain and zod, nothing else.",
      from: { path: "^app/domain/" },
      to: { pathNot: ["^app/domain/", "^node_modules/zod/"] },
    },
    {
      name: "lib-below-the-app",
      severity: "error",
      comment: "app/lib is shared by the browser and the server: it imports app/domain and app/lib only.",
      from: { path: "^app/lib/" },
      to: { path: "^(app|server|scripts|bench|tests)/", pathNot: ["^app/domain/", "^app/lib/"] },
    },
    {
      name: "emails-below-the-services",
      severity: "error",
      comment: "app/emails are templates: they take their data as props and import app/domain and app/lib only.",
      from: { path: "^app/emails/" },
      to: { path: "^(app|server|scripts|bench|tests)/", pathNot: ["^app/domain/", "^app/lib/", "^app/emails/"] },
    },
    {
      name: "services-below-the-pages",
      severity: "error",
      comment: "app/server (the services) never imports components, routes, the HTTP listener, scripts or tests.",
      from: { path: "^app/server/" },
      to: { path: ["^app/components/", ...ABOVE_APP_SERVER] },
    },
    {
      name: "services-speak-no-http",
      severity: "error",
      comment:
        "app/server returns values (an outcome, a decision, a reply); reading the form and answering with " +
        "data(), redirect() or a middleware is the route layer's (app/routes, app/http): never React Router here.",
      from: { path: "^app/server/" },
      to: { path: "^node_modules/(react-router|@react-router)/" },
    },
    {
      name: "http-below-the-routes",
      severity: "error",
      comment: "app/http holds the routes' helpers (guards, form readers, replies): it never imports a route module.",
      from: { path: "^app/http/" },
      to: { path: ["^app/routes/", "^app/routes[.]ts$", "^app/root[.]tsx$", "^app/entry[.]"] },
    },
    {
      name: "components-never-import-the-server",
      severity: "error",
      comment:
        "app/components run in the browser: they import app/domain, app/lib and each other, never app/server, " +
        "app/emails or a .server module (a route's loader passes them what the server knows).",
      from: { path: "^app/components/" },
      to: { path: ["^app/server/", "^app/emails/", "[.]server[.]tsx?$", ...ABOVE_APP_SERVER] },
    },
    {
      name: "server-ground-floor",
      severity: "error",
      comment: "The database, the environment and the logger are app/server's ground: they import no other service.",
      from: { path: "^app/server/(db/|env[.-]|logger[.]server)" },
      to: {
        path: "^app/server/",
        pathNot: [
          "^app/server/db/",
          "^app/server/env[.-]",
          "^app/server/logger[.]server",
          "^app/server/payments-label",
        ],
      },
    },
    {
      name: "routes-below-the-listener",
      severity: "error",
      comment: "app/ never imports the HTTP listener (server/), scripts, benchmarks or tests.",
      from: { path: "^app/" },
      to: { path: ["^server/", "^scripts/", "^bench/", "^tests/"] },
    },
    {
      name: "listener-below-the-tools",
      severity: "error",
      comment: "server/ (the HTTP listener) never imports scripts, benchmarks or tests.",
      from: { path: "^server/" },
      to: { path: ["^scripts/", "^bench/", "^tests/"] },
    },
    {
      name: "scripts-below-the-tests",
      severity: "error",
      comment: "scripts/ never import benchmarks or tests; benchmarks may share tests/support/.",
      from: { path: "^scripts/" },
      to: { path: ["^bench/", "^tests/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|build-[^/]+|[.]react-router|data|bench/results)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
