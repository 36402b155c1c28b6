import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // A separate build directory lets several builds (tests, benchmarks) run side by side.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  future: {
    // Every loader and action of a request gets the request itself, not a copy per loader (React
    // Router 8's default): the session is looked up once per request (getCurrentSession), and no
    // Request is rebuilt twice per loader. Its URL is the one asked for (`/licenses.data?_routes=…`);
    // loaders read the page's URL from their `url` argument or through pageUrl().
    v8_passThroughRequests: true,
    // Route middleware: the admin layout's guard covers every route under it (routes/admin/layout.tsx).
    // Loaders and actions get a RouterContextProvider (server/load-context.ts).
    v8_middleware: true,
  },
} satisfies Config;
