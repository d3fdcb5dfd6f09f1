// typescript-eslint with type-checked rules over the TypeScript sources; Prettier owns formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Rules the code does not meet yet (mostly untyped rows and commander options):
// until the typed-database work turns them into errors (issue 14) they gate
// nothing, so `npm run lint` leaves them off (they are half of its time) and
// `npm run lint:pending` lists what they still find, as warnings.
const pending = process.env.MEMLEDGER_LINT_PENDING === '1' ? 'warn' : 'off';
const notYet = Object.fromEntries(
  [
    'no-unsafe-member-access',
    'no-unsafe-argument',
    'no-explicit-any',
    'no-unsafe-assignment',
    'no-unnecessary-type-assertion',
    'no-unsafe-call',
    'no-unused-vars',
    'no-unsafe-return',
    'require-await',
    'unbound-method',
    'prefer-promise-reject-errors',
    'no-misused-promises',
    'await-thenable',
  ].map((rule) => [`@typescript-eslint/${rule}`, pending]),
);

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'console/dist/', 'coverage/', '.memledger/', 'bin/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: notYet,
    // The disable comments written for the pending rules are not unused while those rules are off.
    linterOptions: { reportUnusedDisableDirectives: pending },
  },
  {
    // The read side reads projections and the shared reads layer (src/reads), never the write side.
    files: ['src/queries/**/*.ts', 'src/reads/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/commands/**'],
              message: 'queries and src/reads never import src/commands: move what both need to src/reads or src/domain',
            },
          ],
        },
      ],
    },
  },
);
