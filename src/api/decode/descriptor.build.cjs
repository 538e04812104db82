// Build step (run by esbuild.js, see "decoders bundle"): loads Hedera's .proto files shipped in @hashgraph/proto
// (node_modules/@hashgraph/proto/src/proto/*.proto) with the full protobufjs, keeps only
// `proto.SchedulableTransactionBody` and the types it reaches, and writes a compact JSON descriptor that the
// decoders bundle reads at run time with `protobufjs/light` + `Root.fromJSON` (no .proto parser shipped).
// Regenerated when missing or older than @hashgraph/proto; deterministic (same input, same bytes).
const fs = require('fs');
const path = require('path');

const ROOT_TYPE = 'proto.SchedulableTransactionBody';
const OUT = path.join(__dirname, 'schedulableBody.descriptor.json');

function protoDir(root) {
  return path.join(root, 'node_modules', '@hashgraph', 'proto', 'src', 'proto');
}

/** Writes the descriptor if needed; returns {path, bytes, types, regenerated}. */
function generateDescriptor(root, { force = false } = {}) {
  const dir = protoDir(root);
  const pkg = path.join(root, 'node_modules', '@hashgraph', 'proto', 'package.json');
  if (!fs.existsSync(dir)) {
    if (fs.existsSync(OUT)) return { path: OUT, bytes: fs.statSync(OUT).size, regenerated: false };
    throw new Error('@hashgraph/proto is not installed (npm install): the schedule body descriptor cannot be built');
  }
  const version = JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
  if (!force && fs.existsSync(OUT)) {
    try {
      const current = JSON.parse(fs.readFileSync(OUT, 'utf8'));
      if (current.source === `@hashgraph/proto@${version}`)
        return { path: OUT, bytes: fs.statSync(OUT).size, regenerated: false };
    } catch {
      /* regenerate */
    }
  }
  const protobuf = require('protobufjs');
  const rootNs = new protobuf.Root();
  rootNs.resolvePath = (_origin, target) => path.join(dir, path.basename(target));
  rootNs.loadSync(path.join(dir, 'services_schedulable_transaction_body.proto'), { keepCase: true });
  rootNs.resolveAll();

  // every type reachable from the root type
  const keep = new Set();
  const visit = (t) => {
    const name = t && t.fullName.replace(/^\./, '');
    if (!t || keep.has(name)) return;
    keep.add(name);
    if (t instanceof protobuf.Type) {
      for (const f of t.fieldsArray) if (f.resolvedType) visit(f.resolvedType);
    }
  };
  visit(rootNs.lookupType(ROOT_TYPE));

  // the JSON of the kept types only, inside their namespaces; comments and options left out (not used to decode)
  const strip = (node, prefix) => {
    const out = {};
    if (node instanceof protobuf.Type) {
      out.fields = {};
      for (const f of node.fieldsArray) {
        const jf = { type: f.type, id: f.id };
        if (f.rule === 'repeated') jf.rule = 'repeated';
        if (f instanceof protobuf.MapField) jf.keyType = f.keyType;
        out.fields[f.name] = jf;
      }
      const oneofs = node.oneofsArray.filter((o) => !o.name.startsWith('_'));
      if (oneofs.length) {
        out.oneofs = {};
        for (const o of oneofs) out.oneofs[o.name] = { oneof: o.oneof.slice() };
      }
    } else if (node instanceof protobuf.Enum) {
      return { values: { ...node.values } };
    }
    const nested = {};
    for (const child of node.nestedArray || []) {
      const full = `${prefix}${child.name}`;
      const inKeep = keep.has(full);
      const hasKeptInside = [...keep].some((k) => k.startsWith(`${full}.`));
      if (!inKeep && !hasKeptInside) continue;
      const j = strip(child, `${full}.`);
      if (!inKeep && (child instanceof protobuf.Type || child instanceof protobuf.Enum)) {
        // a type that is not reached but holds reached nested types: keep it as a plain namespace
        nested[child.name] = { nested: j.nested };
      } else nested[child.name] = j;
    }
    if (Object.keys(nested).length) out.nested = nested;
    return out;
  };
  const json = {
    source: `@hashgraph/proto@${version}`,
    root: ROOT_TYPE,
    types: keep.size,
    descriptor: strip(rootNs, ''),
  };
  // sanity check: the trimmed descriptor loads and resolves in protobufjs/light
  const light = require('protobufjs/light');
  light.Root.fromJSON(json.descriptor).resolveAll().lookupType(ROOT_TYPE);
  const text = JSON.stringify(json);
  fs.writeFileSync(OUT, text);
  return { path: OUT, bytes: text.length, types: keep.size, regenerated: true };
}

module.exports = { generateDescriptor, DESCRIPTOR_PATH: OUT };

if (require.main === module) {
  const r = generateDescriptor(path.join(__dirname, '..', '..', '..'), { force: process.argv.includes('--force') });
  console.log(
    `${path.relative(process.cwd(), r.path)}: ${r.bytes} bytes${r.types ? `, ${r.types} types` : ''}${r.regenerated ? '' : ' (up to date)'}`,
  );
}
