// ESLint: the recommended JavaScript and typescript-eslint rules, with formatting left to Prettier
// (eslint-config-prettier turns off every rule that Prettier decides). `npm run lint` in `npm test`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a parameter or binding that is there on purpose and unused
      // (an interface's argument, a property left out of a rest spread).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The benchmark harness, the scripts, the SQLite driver loader and the writer worker are plain
    // CommonJS run by Node directly.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The dashboard's one script runs in the browser, as a classic script.
    files: ['apps/api/src/dashboard/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    // Tests read JSON bodies of every shape the service answers; typing each one would restate the
    // API reference in every spec.
    files: ['test/**', '**/*.spec.ts', '**/*-spec.ts', '**/*.spec-helper.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
