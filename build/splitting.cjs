// Reading and checking the code-split output of the extension build (esbuild.js), from its esbuild metafile (paths
// relative to the repository's root). Also used by the bench (test/bench/*.mjs) and the .vsix check.
const path = require('path');

const root = path.join(__dirname, '..');
const abs = (f) => path.resolve(root, f);
const rel = (f) => path.relative(root, f) || '.';
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The output files (absolute paths) that requiring `file` loads at once: the file and the chunks it requires
 * statically, transitively; lazy entries are required later, on first use. `dynamic`: also the chunks loaded later
 * by import() (viem has some).
 */
function outputClosure(metafile, file, { dynamic = false } = {}) {
  const outputs = new Map(Object.entries(metafile.outputs).map(([f, o]) => [abs(f), o]));
  const seen = new Set();
  for (const todo = [abs(file)]; todo.length;) {
    const f = todo.pop();
    if (seen.has(f) || !outputs.has(f)) continue;
    seen.add(f);
    for (const i of outputs.get(f).imports) {
      if (!i.external && (i.kind === 'import-statement' || (dynamic && i.kind === 'dynamic-import')))
        todo.push(abs(i.path));
    }
  }
  return [...seen];
}

/** The modules (absolute paths) in the given output files. */
function inputsOf(metafile, files) {
  return new Set(
    Object.entries(metafile.outputs)
      .filter(([f]) => files.includes(abs(f)))
      .flatMap(([, o]) => Object.keys(o.inputs).map(abs)),
  );
}

/**
 * The outputs nothing loads (absolute paths), removed from the metafile: esbuild emits the target of an import() as
 * a chunk even when the code making it was dropped as unused (viem's WebSocket transport with `ws`, @noble/curves'
 * secp256k1). `outputFiles`: the build's in-memory files; `entryFiles`: the entries' output files.
 */
function dropUnloaded(metafile, outputFiles, entryFiles, { quiet }) {
  const outputs = new Map(Object.entries(metafile.outputs).map(([f, o]) => [abs(f), [f, o]]));
  const referenced = new Set(
    [...outputs.values()].flatMap(([, o]) => o.imports.filter((i) => !i.external).map((i) => abs(i.path))),
  );
  const unused = outputFiles
    .map((out) => out.path)
    .filter(
      (f) =>
        outputs.has(f) &&
        !entryFiles.includes(f) &&
        !referenced.has(f) &&
        !outputFiles.some((other) => other.path !== f && other.text.includes(path.basename(f))),
    );
  for (const f of unused) {
    const [key, o] = outputs.get(f);
    const inputs = Object.keys(o.inputs);
    if (!quiet)
      console.log(
        `${rel(f)} not written: nothing loads it (${inputs.length} modules of an unused import(), first ${inputs[0]})`,
      );
    delete metafile.outputs[key];
  }
  return unused;
}

/**
 * The split's errors: a module in two output files (it would exist twice at run time: `instanceof` fails between
 * the copies); a lazy entry in the activation closure (main.js and the chunks it requires statically: some file
 * imported it statically); a lazy entry no require() reaches. `lazy`: [{ name, path }] with absolute paths.
 */
function splitErrors(metafile, mainFile, lazy) {
  const outputs = new Map(
    Object.entries(metafile.outputs)
      .filter(([f]) => !f.endsWith('.map'))
      .map(([f, o]) => [abs(f), o]),
  );
  const activationInputs = inputsOf(metafile, outputClosure(metafile, mainFile));
  const required = new Set(
    [...outputs.values()].flatMap((o) =>
      o.imports.filter((i) => i.external && i.kind === 'require-call').map((i) => i.path),
    ),
  );
  const errors = [];
  const copies = new Map();
  for (const [f, o] of outputs)
    for (const input of Object.keys(o.inputs)) copies.set(input, [...(copies.get(input) || []), rel(f)]);
  for (const [input, files] of copies)
    if (files.length > 1)
      errors.push(
        `${input} is in ${files.length} output files (${files.join(', ')}): it would exist ${files.length} times at run time`,
      );
  for (const e of lazy) {
    if (activationInputs.has(e.path)) {
      const importers = Object.entries(metafile.inputs)
        .filter(
          ([f, input]) =>
            activationInputs.has(abs(f)) &&
            input.imports.some((i) => i.kind !== 'require-call' && abs(i.path) === e.path),
        )
        .map(([f]) => f);
      errors.push(
        `lazy entry ${e.name} (${rel(e.path)}) is loaded at activation: imported statically by ${importers.join(', ') || 'a module of the activation closure'}`,
      );
    } else if (!required.has(`./${e.name}.js`)) {
      errors.push(`lazy entry ${e.name} (${rel(e.path)}) is required by nothing: no require() resolves to it`);
    }
  }
  return errors;
}

/**
 * Prints the size of every output: main.js, what activation loads, each entry with its note, then the chunks (those
 * activation loads first, then by size) with the entries that require them or reach them by import().
 * `entries`: [main, ...lazy] as { name, note, file: absolute output path }; `sizes`: output path → bytes.
 */
function printSizes(metafile, entries, sizes, { minified }) {
  const min = minified ? ' (minified)' : '';
  const [main, ...lazy] = entries;
  const activation = outputClosure(metafile, main.file);
  const total = activation.reduce((n, f) => n + sizes.get(f), 0);
  console.log(`${rel(main.file)} ${kb(sizes.get(main.file))}${min}: ${main.note}`);
  console.log(
    `  what activation loads (main.js and the chunks it requires): ${activation.length} files, ${kb(total)}${min}`,
  );
  for (const e of lazy) if (sizes.has(e.file)) console.log(`${rel(e.file)} ${kb(sizes.get(e.file))}${min}: ${e.note}`);
  const entryFiles = entries.map((e) => e.file);
  const closures = entries.map((e) => [
    e.name,
    new Set(outputClosure(metafile, e.file)),
    new Set(outputClosure(metafile, e.file, { dynamic: true })),
  ]);
  const chunks = Object.keys(metafile.outputs)
    .filter((f) => !f.endsWith('.map'))
    .map(abs)
    .filter((f) => !entryFiles.includes(f))
    .sort((a, b) => Number(activation.includes(b)) - Number(activation.includes(a)) || sizes.get(b) - sizes.get(a));
  for (const f of chunks) {
    const users = closures.filter(([, c]) => c.has(f)).map(([n]) => n);
    const later = closures.filter(([, c, d]) => !c.has(f) && d.has(f)).map(([n]) => n);
    console.log(
      `${rel(f)} ${kb(sizes.get(f))}${min}: ${users.length ? `required by ${users.join(', ')}` : ''}${users.length && later.length ? '; ' : ''}${later.length ? `import() of ${later.join(', ')}` : ''}${activation.includes(f) ? ' (loaded at activation)' : ''}`,
    );
  }
}

module.exports = { outputClosure, inputsOf, dropUnloaded, splitErrors, printSizes };
