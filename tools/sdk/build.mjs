// Builds cogs/web/static/discord-sdk.js, Discord's Embedded App SDK as one browser script
// (`window.DiscordSDK`), and discord-sdk.LICENSE.txt beside it: the SDK's licence and those of
// the packages the SDK bundles that end up in the file. Run by `make sdk` after `npm ci`, so
// the SDK and esbuild are the versions package-lock.json pins.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, "node_modules");
const staticDir = join(here, "..", "..", "cogs", "web", "static");
const script = join(staticDir, "discord-sdk.js");
const sdkDir = join(modules, "@discord", "embedded-app-sdk");
const sdk = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8"));

function licenceOf(dir) {
  const name = readdirSync(dir).find((file) => /^licen[cs]e/i.test(file));
  if (name === undefined) throw new Error(`no licence file in ${dir}`);
  return readFileSync(join(dir, name), "utf8").trim();
}

const result = await build({
  entryPoints: [join(here, "entry.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  metafile: true,
  write: false,
  banner: {
    js: `/*! ${sdk.name} ${sdk.version} (${sdk.license}), built by tools/sdk (make sdk); licences: discord-sdk.LICENSE.txt */`,
  },
});
const built = result.outputFiles[0].text;
writeFileSync(script, built);

// The SDK ships its dependencies inside its own output (output/lib/<package>/...): those of
// which the bundle kept any code are the ones whose licences go beside it.
const bundled = new Set();
const output = Object.values(result.metafile.outputs)[0];
for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
  const found = bytesInOutput > 0 && input.match(/embedded-app-sdk\/output\/lib\/([^/]+)\//);
  if (found) bundled.add(found[1]);
}
const sections = [
  `${sdk.name} ${sdk.version} — ${sdk.license}\n${sdk.homepage}\n\n${licenceOf(sdkDir)}`,
];
for (const name of [...bundled].sort()) {
  const dir = join(modules, name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  sections.push(`${name} (bundled by ${sdk.name}) — ${pkg.license}\n\n${licenceOf(dir)}`);
}
const header =
  "discord-sdk.js is Discord's Embedded App SDK built into one browser script by tools/sdk\n" +
  "(make sdk). It holds the following software, under these licences.";
writeFileSync(
  join(staticDir, "discord-sdk.LICENSE.txt"),
  [header, ...sections].join(`\n\n${"=".repeat(78)}\n\n`) + "\n",
);
console.log(`${script}: ${built.length} bytes, ${sdk.name} ${sdk.version}; bundled: ${[...bundled].sort().join(", ")}`);
