import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'node_modules/', 'coverage/', '.tmp/', 'samples/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Adapters own @actions/*: the pipeline, client, parsers and emulator stay GitHub-free.
      'no-restricted-imports': 'off',
    },
  },
  {
    files: [
      'src/api/**',
      'src/publish/**',
      'src/reports/**',
      'src/emulator/**',
      'src/schema/**',
      'src/dashboard/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@actions/*'], message: 'Only src/action may import @actions/*.' }],
        },
      ],
    },
  },
);
