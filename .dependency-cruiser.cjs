/**
 * The import rules of src/ (issue 41), checked in `npm test` (`npm run lint:imports`). Layers,
 * lowest first: contracts and lib; engines and converters; storage and billing; tasks and
 * operations; then what serves requests (routes, middleware, dashboard, mcp), and the Worker
 * entries (src/workers/), which nothing imports. A module imports from its own layer or below, never above, and no import goes round
 * in a circle. Type-only imports are left out of the circle rule: `env.ts` names the Durable
 * Object classes its bindings hold, which name the env back, and nothing runs in that loop.
 */
const UPPER_THAN_ENGINES = '^src/(tasks|operations|routes|middleware|dashboard|mcp|storage|billing|auth|convert|workers)/|^src/ocr/pages[.]ts$|^src/(env|app)[.]ts$';
module.exports = {
  forbidden: [
    {
      name: 'worker-entries-are-imported-by-nobody',
      comment: 'src/workers/ holds the entries wrangler starts; the test Worker (test/setup) alone imports them',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/workers/' },
      to: { path: '^src/workers/' },
    },
    { name: 'no-circular', comment: 'an import circle: two modules that each need the other', severity: 'error', from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    {
      name: 'contracts-and-lib-import-nothing-above',
      comment: 'contracts/ and lib/ are what every layer may import: they import nothing of the layers above',
      severity: 'error',
      from: { path: '^src/(contracts|lib)/' },
      to: { path: '^src/(engines|converters|ocr|tasks|operations|routes|middleware|dashboard|mcp|storage|billing|auth|convert|workers)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'engines-and-converters-import-no-upper-layer',
      comment: 'engines and converters are libraries (bytes in, bytes out): no tasks, operations, storage, billing or HTTP',
      severity: 'error',
      from: { path: '^src/(engines|converters)/' },
      to: { path: UPPER_THAN_ENGINES },
    },
    {
      name: 'storage-and-billing-import-no-operations-or-http',
      comment: 'accounts, files, money: below the operations and the routes that use them',
      severity: 'error',
      from: { path: '^src/(storage|billing)/' },
      to: { path: '^src/(tasks|operations|routes|middleware|dashboard|mcp|convert|workers)/|^src/app[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
