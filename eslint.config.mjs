import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "policy-pack/bin/**",
      "coverage/**",
      "examples/*/node_modules/**",
      "sdk/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
        process: "readonly",
        console: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Type-aware rules, on the code the main tsconfig.json compiles (the project service finds it): a promise nobody
    // awaits or handles (its rejection is lost, or it runs after the step that started it has answered the engine),
    // and a promise where a plain value is expected (an async callback whose rejection nothing sees).
    files: ["{contract,provider,emulator,bench,tools,test}/**/*.ts"],
    ignores: ["test/engine/fixtures/**"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    // The emulator is a test double of the real service: it stands beside the provider on contract/ (the wire
    // contract both share) and never imports the client, provider or test code.
    files: ["emulator/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "**/provider",
                "**/provider/**",
                "pulumi-rimuhosting",
                "pulumi-rimuhosting/*",
                "!pulumi-rimuhosting/contract",
              ],
              message: "The emulator is the client's test double: it may import only contract/.",
            },
          ],
        },
      ],
    },
  },
);
