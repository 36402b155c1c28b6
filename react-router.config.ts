import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // A separate build directory lets several builds (tests, benchmarks) run side by side.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
