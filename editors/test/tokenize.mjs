// Tokenizes files with a TextMate grammar as VS Code does (vscode-textmate on the Oniguruma
// regex engine), and prints one JSON object: each file's tokens as [line, text, scopes].
// Usage: node tokenize.mjs GRAMMAR.json FILE...   A grammar that does not load, a pattern the
// engine rejects, or a line whose rules do not stop, fails (exit code 1).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import textmate from "vscode-textmate";
import oniguruma from "vscode-oniguruma";

const require = createRequire(import.meta.url);
const [grammarPath, ...files] = process.argv.slice(2);
const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
const registry = new textmate.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async () => JSON.parse(readFileSync(grammarPath, "utf8")),
});
const grammar = await registry.loadGrammar("source.loony");
if (!grammar) {
  console.error("the grammar did not load");
  process.exit(1);
}
const out = {};
for (const file of files) {
  const tokens = [];
  let stack = textmate.INITIAL;
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, stack, 1000);
    if (r.stoppedEarly) {
      console.error(`${file}:${i + 1}: tokenizing stopped early`);
      process.exit(1);
    }
    for (const t of r.tokens) {
      tokens.push([i, line.slice(t.startIndex, t.endIndex), t.scopes]);
    }
    stack = r.ruleStack;
  });
  out[file] = tokens;
}
process.stdout.write(JSON.stringify(out));
