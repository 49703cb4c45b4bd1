// `pnpm run docs`: the API reference of every published package (each package's exports, read from
// its package.json) into .api-docs/, a warning failing the build. `@alias` marks a deprecated
// second name of an export for knip (its duplicate-export check); TypeDoc is told the tag.
import { OptionDefaults } from 'typedoc'

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'Weft API reference',
  readme: 'docs/api-reference.md',
  entryPointStrategy: 'packages',
  entryPoints: ['packages/*', 'apps/server'],
  // Options of each package's conversion (packages mode reads the root's for the merge only).
  packageOptions: { tsconfig: 'tsconfig.build.json', modifierTags: [...OptionDefaults.modifierTags, '@alias'] },
  out: '.api-docs',
  treatWarningsAsErrors: true,
}
