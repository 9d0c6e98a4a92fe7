// Line-oriented oracle server for Strata's differential tests.
// Each input line is JSON {"op":"fmt"|"parse","name":"file.tf","text":"..."}; each output line is
// JSON {"ok":true,"out":...} or {"ok":false,"error":"..."}. Requests are answered in order.
// "parse" always runs the native-syntax parser, whatever the name. "jsonexpr" runs HashiCorp's JSON
// parser (hcl/v2/json.ParseExpression) through the WASM bridge's parseExpression, which also takes the
// value with a nil context (rejecting duplicate object keys) and parses every string, keys included,
// as a native template (rejecting template syntax errors).
const readline = require("readline");
const { format } = require("@cdktf/hcl-tools");
const { parse } = require("@cdktf/hcl2json");

// The bridge registers its functions on this global once the WASM module runs; parse() waits for that.
async function jsonExpression(name, text) {
  await parse("init.tf", "");
  const bridge = global.__parse_terraform_config_wasm__;
  return new Promise((resolve, reject) => {
    bridge.parseExpression(name, text, (err, out) => (err ? reject(new Error(err)) : resolve(JSON.parse(out))));
  });
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
let chain = Promise.resolve();
rl.on("line", (line) => {
  chain = chain.then(async () => {
    let reply;
    try {
      const req = JSON.parse(line);
      if (req.op === "fmt") {
        reply = { ok: true, out: await format(req.text) };
      } else if (req.op === "jsonexpr") {
        reply = { ok: true, out: await jsonExpression(req.name || "input.json", req.text) };
      } else if (req.op === "parse") {
        reply = { ok: true, out: await parse(req.name || "input.tf", req.text) };
      } else {
        reply = { ok: false, error: "unknown op " + req.op };
      }
    } catch (e) {
      reply = { ok: false, error: String(e && e.message ? e.message : e) };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
});
