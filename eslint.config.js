// Lint: TypeScript, the rules of hooks and accessibility in JSX. Formatting is Prettier's
// (eslint-config-prettier turns off the rules that would disagree with it).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The word "issue" followed by a number (with or without "#") points into a tracker that is not in the repository:
// name the decision record (docs/decisions/) or the doc that says why, or nothing when the comment reads fine alone.
// Another project's issue ("keygen-api #246") or a library's issue URL is not caught.
const TRACKER_ISSUE = /\bissues? #?\d+/gi;

/** The browser tests' shared helpers (the specs themselves are test files). */
const E2E_HELPERS = [
  "tests/e2e/support.ts",
  "tests/e2e/support-keys.ts",
  "tests/e2e/desktop-tool.ts",
  "tests/e2e/two-factor-steps.ts",
];

const local = {
  rules: {
    "no-tracker-issue-numbers": {
      meta: {
        type: "suggestion",
        schema: [],
        messages: { issue: '"{{text}}" points at a tracker outside the repository: name the decision or doc instead.' },
      },
      create(context) {
        const { sourceCode } = context;
        return {
          Program() {
            for (const match of sourceCode.text.matchAll(TRACKER_ISSUE)) {
              const start = sourceCode.getLocFromIndex(match.index);
              const end = sourceCode.getLocFromIndex(match.index + match[0].length);
              context.report({ loc: { start, end }, messageId: "issue", data: { text: match[0] } });
            }
          },
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-*/",
      "node_modules/",
      ".react-router/",
      "data/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      "drizzle/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          caughtErrors: "none",
        },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-duplicate-imports": "off",
      "import/no-duplicates": "off",
    },
  },
  {
    // Icons come from app/components/lucide-icons.ts: one <svg> with fixed markup, not Lucide's components,
    // which build every icon's shapes as elements at each render (decision 0084).
    files: ["app/**"],
    ignores: ["app/components/lucide-icons.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "lucide-react", message: "Import icons from ~/components/lucide-icons." }],
          patterns: [{ group: ["lucide-react/*"], message: "Only ~/components/lucide-icons reads Lucide." }],
        },
      ],
    },
  },
  {
    // No function over 80 lines (blank lines and comments not counted): split by concern, into sub-components
    // or named steps (decision 0035). The tests' shared code (fixtures, helpers) is code and is held to it too;
    // test files and benchmarks are left out: a describe block is long by nature.
    // A long literal that is data, not code (seed rows), may say so with an eslint-disable-next-line and its reason.
    files: ["app/**", "server/**", "scripts/**", "tests/support/**", ...E2E_HELPERS],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // tests/support holds fixtures (set-ups that return their start, stop and reset steps) and helpers, never
    // tests or hooks: a test file registers the fixture's steps itself, so it shows what runs around its tests.
    files: ["tests/support/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "vitest",
              importNames: ["describe", "it", "test", "beforeAll", "afterAll", "beforeEach", "afterEach"],
              message: "tests/support returns set-up steps; the test file calls describe/it and registers the hooks.",
            },
          ],
        },
      ],
    },
  },
  {
    // Comments, test names and texts say what they mean, not which tracker issue asked for it (the same check
    // covers docs/ in tests/unit/repository/repository-docs.test.ts).
    plugins: { local },
    rules: { "local/no-tracker-issue-numbers": "error" },
  },
  {
    // Each browser worker tests its own site (decision 0063): its address is the `baseURL` fixture or the page's
    // origin, never the project's configuration, which names no site.
    files: ["tests/e2e/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='baseURL'][object.property.name='use']",
          message: "The site is the worker's: use the baseURL fixture or new URL(page.url()).origin.",
        },
      ],
    },
  },
  {
    // Tests read answers loosely (a route's data, a fixture's JSON); the app code stays strict.
    files: ["tests/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  prettier,
  {
    // Prettier wraps code at 120; what it cannot break (class lists, texts, SVG paths) may run longer.
    rules: { "max-len": ["error", { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true }] },
  },
);
