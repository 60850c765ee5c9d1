// Lint rules, including the import boundaries between runtime layers described in
// docs/architecture.md: each folder may only reach the layers below it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = ['node:*', ...builtinModules, ...builtinModules.map((m) => `${m}/*`)];

/**
 * Builds a no-restricted-imports rule from forbidden module names and path patterns, each group
 * with its message. ESLint keeps only the last matching config's setting of a rule, so a folder
 * under several rules gets them all in one call.
 */
function forbid(...groups) {
  return {
    'no-restricted-imports': [
      'error',
      { patterns: groups.map(([names, message]) => ({ group: names, message })) },
    ],
  };
}

// What none of the core layers (server, client, app) may import; each adds its own layer rule below.
const CORE_FORBIDDEN = [
  'electron',
  'electron/*',
  'react',
  'react-*',
  '**/renderer/**',
  '**/main/**',
  '**/preload/**',
  '**/web/**',
];
const CORE_MESSAGE =
  'Core layers (server, client, app) must not import electron, react, the renderer or the hosts.';

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
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: forbid([
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
    ]),
  },
  {
    // The exec-server runs on hosts without the app: it never reaches up into the client or app.
    files: ['electron/server/**/*.ts'],
    rules: forbid(
      [CORE_FORBIDDEN, CORE_MESSAGE],
      [['**/client/**', '**/app/**'], 'electron/server imports neither electron/client nor electron/app.'],
    ),
  },
  {
    // The app reaches servers only through the client, over the wire.
    files: ['electron/app/**/*.ts'],
    rules: forbid(
      [CORE_FORBIDDEN, CORE_MESSAGE],
      [['**/server/**'], 'electron/app reaches the exec-server only through electron/client.'],
    ),
  },
  {
    // The client is used by the app and the CLI alike, so it knows nothing of the app.
    files: ['electron/client/**/*.ts'],
    rules: forbid(
      [CORE_FORBIDDEN, CORE_MESSAGE],
      [['**/app/**'], 'electron/client never imports electron/app.'],
    ),
  },
  {
    // The command-line launcher may start the web host, but never Electron or the renderer.
    files: ['electron/cli/**/*.ts'],
    rules: forbid([
      ['electron', 'electron/*', 'react', 'react-*', '**/renderer/**', '**/main/**', '**/preload/**'],
      'The CLI must run without Electron.',
    ]),
  },
  {
    files: ['electron/main/**/*.ts', 'electron/preload/**/*.ts'],
    rules: forbid([
      ['**/renderer/**', 'react', 'react-*'],
      'The Electron host must not import renderer source.',
    ]),
  },
  {
    files: ['electron/web/**/*.ts'],
    rules: forbid([
      ['electron', 'electron/*', '**/renderer/**', 'react', 'react-*', '**/main/**', '**/preload/**'],
      'The web host reaches only shared/ and electron/app (and Node); never electron or renderer source.',
    ]),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: forbid([
      [...nodeBuiltins, 'electron', 'electron/*', '**/electron/**', 'ws', 'node-pty'],
      'renderer/ imports only shared/, react, xterm and zustand.',
    ]),
  },
);
