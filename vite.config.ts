import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

// The server build's entry is our Express app (server/app.ts), so the whole
// server — routes, database, auth — is one bundle with one copy of each module.
export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // Browsers from 2022 on: no down-levelling helpers in the bundle.
    target: "es2022",
    // The browser's bundle takes only the shapes from Lucide's icon modules (app/components/lucide-icons.ts):
    // their components, built by an unannotated call, and Lucide's runtime behind them are left out.
    rollupOptions: isSsrBuild
      ? { input: "./server/app.ts" }
      : { treeshake: { manualPureFunctions: ["createLucideIcon"] } },
    // The browser's bundle through terser: ≈ 3 KB less gzipped JavaScript on every page than
    // esbuild's minifier, for a few seconds more per build (docs/decisions/0008-home-page-weight.md).
    ...(isSsrBuild
      ? {}
      : {
          minify: "terser" as const,
          terserOptions: { ecma: 2020 as const, module: true, format: { comments: false } },
        }),
  },
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
}));
