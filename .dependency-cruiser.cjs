/**
 * The import rules of src/ (issue 41, DESIGN.md "Target layout"), checked in `npm test`
 * (`npm run lint:imports`; folder-level circles by scripts/lint/folder-cycles.mjs). The layers, lowest first:
 *
 *   lib → contracts → codecs → fonts → pdf, layout, paint → convert/office → convert/<format> → ocr
 *   → service (tasks, billing, storage, auth, env) → operations → api → workers
 *
 * A module imports from its own layer or below, never above, and no import goes round in a circle.
 * Layout and paint never import each other (they share only the display types of contracts/);
 * a format's readers (convert/<format>/read/) never import layout. Type-only imports are left out
 * of the circle rule: `service/env.ts` names the Durable Object classes its bindings hold, which
 * name the env back, and nothing runs in that loop.
 */
const ENGINE_SIDE = '^src/(lib|contracts|codecs|fonts|pdf|layout|paint|convert|ocr)/';
const SERVICE_AND_UP = '^src/(service|operations|api|workers)/';
const upward = (name, from, to, comment) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to, dependencyTypesNot: ['type-only'] } });
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'an import circle: two modules that each need the other', severity: 'error', from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    {
      name: 'worker-entries-are-imported-by-nobody',
      comment: 'src/workers/ holds the entries wrangler starts; the test Worker (test/setup) alone imports them',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/workers/' },
      to: { path: '^src/workers/' },
    },
    {
      name: 'faces-are-data',
      comment: 'the faces at hand (fonts/bundled.ts) are for the tests: a Worker reads its faces from its FONTS static assets (fonts/face-shelf.ts), so no bundle carries one',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/fonts/bundled[.]ts$' },
      to: { path: '^src/fonts/bundled[.]ts$' },
    },
    upward('lib-imports-only-lib', '^src/lib/', '^src/(?!lib/)', 'lib/ is what every layer may import: it imports nothing else of src/'),
    upward('contracts-import-only-lib', '^src/contracts/', '^src/(?!lib/|contracts/)', 'contracts/ (input file, run context, failures, scratch keys, RPC shapes) import only lib/'),
    upward('codecs-import-only-lib', '^src/codecs/', '^src/(?!lib/|codecs/|contracts/)', 'codecs (png, jpeg, zlib, zip, xml, webp) know no document'),
    upward('fonts-import-only-codecs', '^src/fonts/', '^src/(?!lib/|codecs/|contracts/|fonts/)', 'fonts are data and their readers: below layout, paint and the PDF writer'),
    upward('pdf-imports-no-document-layer', '^src/pdf/', '^src/(layout|paint|convert|ocr)/|' + SERVICE_AND_UP, 'the PDF layer (MuPDF, the finisher, the writer, stamps) serves the converters and operations, it knows none of them'),
    upward('layout-never-imports-paint', '^src/layout/', '^src/(paint|pdf|convert|ocr)/|' + SERVICE_AND_UP, 'layout measures and places (with fonts); paint draws: they share a display type, never an import'),
    upward('paint-never-imports-layout', '^src/paint/', '^src/(layout|convert|ocr)/|' + SERVICE_AND_UP, 'paint draws what layout placed: paths, text runs, pictures, clips (to pdf, fonts, codecs)'),
    {
      name: 'office-parts-know-no-format',
      comment: 'the Office parts (OPC, themes, DrawingML, charts, VML, OfficeArt) are shared by Word, sheets and slides: typed on their own model, not even a type of a format',
      severity: 'error',
      from: { path: '^src/convert/office/' },
      to: { path: '^src/convert/(?!office/)[^/]+/|^src/(layout|ocr)/|' + SERVICE_AND_UP },
    },
    upward('converters-are-libraries', '^src/(convert|ocr)/', SERVICE_AND_UP, 'converters are libraries (bytes in, PDF chunks out): no tasks, operations, storage, billing or HTTP'),
    upward('converters-know-no-task', '^src/(convert|layout|paint|fonts|codecs)/', '^src/contracts/(failures|operation)[.]ts$', 'a converter throws its own errors (convert/errors.ts, lib/limits.ts) and knows no RunContext: the operation maps them to task failures'),
    {
      name: 'api-imports-specs-not-runs',
      comment: 'the API Worker reads the registry of specs (operations/index.ts); the runs (operations/runs.ts) belong to the engine Workers, so none reaches the API bundle',
      severity: 'error',
      from: { path: '^src/(api|service)/' },
      to: { path: '^src/operations/runs[.]ts$' },
    },
    {
      name: 'layout-knows-no-format',
      comment: 'layout lays out its own block model (layout/blocks/model.ts): a format reaches it through its adapter (convert/word/blocks/to-blocks.ts), so layout imports nothing of a converter, of paint or of the PDF layer, not even a type',
      severity: 'error',
      from: { path: '^src/layout/' },
      to: { path: '^src/(convert|paint|pdf|ocr)/|' + SERVICE_AND_UP },
    },
    ...[
      ['text', 'blocks|tables|pages|display'],
      ['blocks', 'tables|pages|display'],
      ['tables', 'pages|display'],
      ['pages', 'display'],
      ['grid', 'blocks|tables|pages|display'],
    ].map(([step, later]) => ({
      name: `layout-${step}-imports-no-later-step`,
      comment: 'inside layout: text (measure, bidi, shaping) → blocks (lines, paragraphs, borders) → tables → pages (pager, floats) → display (the display list); no step imports a later one',
      severity: 'error',
      from: { path: `^src/layout/${step}/` },
      to: { path: `^src/layout/(${later})/` },
    })),
    {
      name: 'no-format-has-its-own-flow',
      comment: 'line breaking, tables and pagination live in src/layout/, shared by every converter: no convert/<format>/flow/ again',
      severity: 'error',
      from: { path: '^src/convert/[^/]+/flow/' },
      to: {},
    },
    upward('readers-never-import-layout', '^src/convert/[^/]+/read/', '^src/layout/|^src/convert/[^/]+/(layout|blocks)/', 'a reader builds the document model; it never reaches into layout'),
    upward('service-imports-no-operation-or-api', '^src/service/', '^src/(operations|api)/', 'tasks, money, storage and accounts: below the operations and the routes that use them'),
    upward('operations-import-no-api', '^src/operations/', '^src/api/', 'an operation is a definition and a run; the HTTP side reads the registry, not the other way'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
