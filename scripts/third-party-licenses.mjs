// Writes the license texts of every npm package whose code an esbuild bundle contains (from the
// bundles' metafiles), so the bundled command and library carry the notices their MIT/BSD/ISC
// licenses ask for.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** node_modules/@scope/name/… or node_modules/name/… → the package's directory. */
function packageDirectory(input) {
  const match = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
  return match?.[1];
}

export function writeThirdPartyLicenses(metafiles, outfile) {
  const directories = new Set();
  for (const metafile of metafiles)
    for (const input of Object.keys(metafile.inputs)) {
      const directory = packageDirectory(input);
      if (directory !== undefined) directories.add(directory);
    }
  const sections = [...directories].sort().map((directory) => {
    const pkg = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    const file = existsSync(directory) ? readdirSync(directory).find((name) => /^licen[cs]e(\.|$)/i.test(name)) : undefined;
    if (typeof pkg.license !== 'string') throw new Error(`${pkg.name} is bundled but declares no license`);
    const repository = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    // A few packages ship no license file: name the license they declare and where its text is.
    const text =
      file === undefined
        ? `${pkg.license}, as declared in its package.json (no license file is published; see ${repository}).`
        : readFileSync(join(directory, file), 'utf8').trim();
    return `## ${pkg.name} ${pkg.version} (${pkg.license})\n\n${text}\n`;
  });
  writeFileSync(
    outfile,
    `# Third-party licenses\n\nThe bundles of this package (dist/cli.js, dist/index.js) contain code of these packages.\n\n${sections.join('\n')}`,
  );
  return directories.size;
}
