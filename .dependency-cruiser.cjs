// The import rules of the layout in docs/architecture.md, checked by `npm run check:deps` (part of
// `npm test` and CI). Each rule names what it keeps out; none has exceptions for files that break it.

const domainFolders = 'metrics|system|transfer';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'every-import-resolves',
      comment: 'The rules below see only what resolves; an import nothing resolves would slip past them.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-import-cycles',
      comment: 'A cycle makes every file in it depend on all the others; split the shared part out.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'express-only-in-the-http-layer',
      comment:
        'Domain code takes streams, values and the caller, never a Request (packages/server: http/, routes/, cli/, server.ts).',
      severity: 'error',
      from: { pathNot: '^packages/server/src/(http|routes|cli)/|^packages/server/src/(server|cli)\\.ts$' },
      to: { path: 'node_modules/(@types/)?(express|express-rate-limit|passport|passport-jwt)/' },
    },
    {
      name: 'domain-code-below-the-http-layer',
      comment:
        'What packages/server keeps besides HTTP (process concerns, export and import) does not reach up into it.',
      severity: 'error',
      from: { path: `^packages/server/src/(${domainFolders})/`, pathNot: '\\.test(-support)?\\.ts$' },
      to: { path: '^packages/server/src/((http|routes|cli|mcp|openai)/|(server|cli)\\.ts$)' },
    },
    {
      name: 'modules-only-through-their-contracts',
      comment: "Other code imports a module's contract.ts; its index.ts only where modules are composed.",
      severity: 'error',
      from: {
        path: '^(packages|kernel|plugins|examples|test)/',
        pathNot: ['^packages/core/src/modules/', '\\.test\\.ts$'],
      },
      to: {
        path: '^packages/core/src/modules/[^/]+/',
        pathNot: '^packages/core/src/modules/[^/]+/contract\\.ts$',
      },
    },
    {
      name: 'modules-do-not-reach-into-each-other',
      comment: "A module uses another module through that module's contract, never its internals.",
      severity: 'error',
      from: { path: '^packages/core/src/modules/([^/]+)/' },
      to: {
        path: '^packages/core/src/modules/[^/]+/',
        pathNot: ['^packages/core/src/modules/$1/', '^packages/core/src/modules/[^/]+/contract\\.ts$'],
      },
    },
    {
      name: 'modules-stay-out-of-the-server-and-kernel',
      comment: 'A module knows the plugin API and other contracts: not express, packages/server or the Kernel object.',
      severity: 'error',
      from: { path: '^packages/core/src/modules/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(packages/server|kernel)/|node_modules/express/' },
    },
    {
      name: 'client-knows-only-the-http-api',
      comment: '@docqa/client runs in browsers and programs elsewhere: it knows DocQA by its API types, not its code.',
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: '^(kernel|plugins|examples|packages/(?!client/))[^/]*/|node_modules/express/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // Our packages list `types` (dist) first; matching is in the exports' order, so it is left out.
      conditionNames: ['docqa-source', 'import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
