// Writes the page's data into OUTDIR: tour.json (docs/tour.md's sections and boxes, read as
// tests/repl_runner.py reads them) and examples.json (play/examples/*.rly, each named by its first
// comment line, and ../shared/models/resnet18.rly when it is there).
//   node play/tools/data.mjs SOURCE_ROOT OUTDIR
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, out] = process.argv.slice(2).map((p) => resolve(p));
const { parseTour } = await import(pathToFileURL(join(root, 'play', 'src', 'tour.js')).href);

const tour = parseTour(readFileSync(join(root, 'docs', 'tour.md'), 'utf8'));
writeFileSync(join(out, 'tour.json'), JSON.stringify(tour));

const examples = [];
const dir = join(root, 'play', 'examples');
for (const f of readdirSync(dir).filter((f) => f.endsWith('.rly')).sort()) {
  const text = readFileSync(join(dir, f), 'utf8');
  const first = /^\/\/\s*(.*?)[.:]/.exec(text);
  examples.push({ name: first ? first[1] : f, text });
}
const resnet = join(root, '..', 'shared', 'models', 'resnet18.rly');
if (existsSync(resnet)) {
  // TVM's dump, then a run of @main on tensors of ones (its weights are parameters), made from its
  // parameters' types
  const model = readFileSync(resnet, 'utf8');
  const header = /def @main\(([^{]*)\)\s*(?:->[^{]*)?\{/.exec(model);
  const args = header ? [...header[1].matchAll(/%[A-Za-z0-9_]+\s*:\s*Tensor\[\(([0-9, ]*)\), float32\]/g)]
    .map((m) => `ones(shape=[${m[1]}])`) : [];
  const run = args.length
    ? `\n// Run it on tensors of ones (TVM's tutorial gives the weights as parameters): the most likely class\nargmax(@main(${args.join(', ')}))\n`
    : '';
  examples.push({ name: 'ResNet-18, as TVM printed it (hover its bindings; Run takes a few seconds)', text: model.replace(/\n*$/, '\n') + run });
}
writeFileSync(join(out, 'examples.json'), JSON.stringify(examples));
console.log(`play/build: ${tour.length} tour sections, ${examples.length} examples`);
