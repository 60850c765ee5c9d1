// Lint rules, including the import boundaries between runtime layers described in
// docs/architecture.md: each folder may only reach the layers below it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = ['node:*', ...builtinModules, ...builtinModules.map((m) => `${m}/*`)];

/** Builds a no-restricted-imports rule from forbidden module names and path patterns. */
function forbid(names, message) {
  return {
    'no-restricted-imports': ['error', { patterns: [{ group: names, message }] }],
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.cache/**', 'test-results/**', 'coverage/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.js', 'eslint.config.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: forbid(
      [
        ...nodeBuiltins,
        'electron',
        'electron/*',
        'react',
        'react-*',
        '**/electron/**',
        '**/renderer/**',
        'ws',
        'node-pty',
      ],
      'shared/ holds contracts only: no Node, Electron, React, DOM or I/O.',
    ),
  },
  {
    files: [
      'electron/server/**/*.ts',
      'electron/client/**/*.ts',
      'electron/app/**/*.ts',
      'electron/cli/**/*.ts',
    ],
    rules: forbid(
      [
        'electron',
        'electron/*',
        'react',
        'react-*',
        '**/renderer/**',
        '**/main/**',
        '**/preload/**',
        '**/web/**',
      ],
      'Core layers (server, client, app) must not import electron, react, the renderer or the hosts.',
    ),
  },
  {
    // The command-line launcher may start the web host, but never Electron or the renderer.
    files: ['electron/cli/**/*.ts'],
    rules: forbid(
      ['electron', 'electron/*', 'react', 'react-*', '**/renderer/**', '**/main/**', '**/preload/**'],
      'The CLI must run without Electron.',
    ),
  },
  {
    files: ['electron/main/**/*.ts', 'electron/preload/**/*.ts'],
    rules: forbid(
      ['**/renderer/**', 'react', 'react-*'],
      'The Electron host must not import renderer source.',
    ),
  },
  {
    files: ['electron/web/**/*.ts'],
    rules: forbid(
      ['electron', 'electron/*', '**/renderer/**', 'react', 'react-*', '**/main/**', '**/preload/**'],
      'The web host reaches only shared/ and electron/app (and Node); never electron or renderer source.',
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: forbid(
      [...nodeBuiltins, 'electron', 'electron/*', '**/electron/**', 'ws', 'node-pty'],
      'renderer/ imports only shared/, react, xterm and zustand.',
    ),
  },
);
