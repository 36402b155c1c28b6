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
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
}));
