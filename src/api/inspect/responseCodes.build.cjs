// Build step: Hedera's ResponseCodeEnum (the `responseCode` that the token and account services return, SUCCESS = 22)
// read from the .proto file shipped in @hashgraph/proto (src/proto/services_response_code.proto) with the full
// protobufjs, written as responseCodes.json ({ source, codes: { "22": "SUCCESS", … } }) for ./responseCodes.ts.
// Deterministic: the same package version gives the same bytes. Run: node src/api/inspect/responseCodes.build.cjs
// (test/unit/inspect.systemContracts.test.ts checks the committed file against the installed package).
const fs = require('fs');
const path = require('path');

const OUT = path.join(__dirname, 'responseCodes.json');

/** The table from the installed @hashgraph/proto under `root` (the repository), as written to responseCodes.json. */
function responseCodeTable(root) {
  const base = path.join(root, 'node_modules', '@hashgraph', 'proto');
  const file = path.join(base, 'src', 'proto', 'services_response_code.proto');
  const version = JSON.parse(fs.readFileSync(path.join(base, 'package.json'), 'utf8')).version;
  const protobuf = require('protobufjs');
  const parsed = protobuf.parse(fs.readFileSync(file, 'utf8'), { keepCase: true });
  const e = parsed.root.lookupEnum('proto.ResponseCodeEnum');
  const codes = {};
  for (const [name, value] of Object.entries(e.values).sort((a, b) => a[1] - b[1])) {
    if (codes[value] === undefined) codes[value] = name; // an alias keeps the first name
  }
  return { source: `@hashgraph/proto@${version} services_response_code.proto ResponseCodeEnum`, codes };
}

/** Writes responseCodes.json when its content differs; returns whether it did. */
function generateResponseCodes(root) {
  const text = `${JSON.stringify(responseCodeTable(root), null, 1)}\n`;
  if (fs.existsSync(OUT) && fs.readFileSync(OUT, 'utf8') === text) return false;
  fs.writeFileSync(OUT, text);
  return true;
}

module.exports = { responseCodeTable, generateResponseCodes, OUT };

if (require.main === module) {
  const changed = generateResponseCodes(path.join(__dirname, '..', '..', '..'));
  console.log(`${path.relative(process.cwd(), OUT)} ${changed ? 'written' : 'unchanged'}`);
}
