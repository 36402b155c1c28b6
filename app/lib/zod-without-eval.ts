/**
 * Zod compiles an object schema with `new Function` where the page allows it, and finds out by trying
 * when the schema is made: under the site's Content-Security-Policy (no 'unsafe-eval') that try is a
 * violation Chromium reports (Lighthouse's best practices on /pricing). In the browser the
 * forms are small: schemas parse without compiling (`jitless`). Imported first by root.tsx, before any
 * module that makes a schema. Set on the global object zod reads its configuration from (as
 * `z.config` would), so that pages without a form do not load zod for it; the server keeps compiling.
 * The pricing e2e test fails if zod ever probes again.
 */
if (typeof document !== "undefined") {
  const global = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  global.__zod_globalConfig = Object.assign(global.__zod_globalConfig ?? {}, { jitless: true });
}
