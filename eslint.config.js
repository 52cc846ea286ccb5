// ESLint (flat config): typescript-eslint's recommended rules, and lines of at most 120 columns
// (strings, template literals, URLs and regular expressions aside). Prettier formats the code
// (.prettierrc.json); ESLint catches what it leaves alone: long comments and real mistakes.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.saltnet/', 'fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@stylistic': stylistic },
    languageOptions: { globals: globals.node },
    rules: {
      '@stylistic/max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
      // A server's handle is read by the shutdown closure declared before it is assigned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Terminal and XML text is cleaned of control characters on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The explorer's page runs in the browser as ES modules (harness/ui/page).
    files: ['harness/ui/page/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'module' },
  },
  {
    // The simulator's launchers are CommonJS (harness/sim/bin/package.json): plain scripts, named like the programs
    // they stand for, that start the simulated one.
    files: ['harness/sim/bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read JSON answers of arbitrary shape.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
