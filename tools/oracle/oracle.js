// Line-oriented oracle server for Strata's differential tests.
// Each input line is JSON {"op":"fmt"|"parse","name":"file.tf","text":"..."}; each output line is
// JSON {"ok":true,"out":...} or {"ok":false,"error":"..."}. Requests are answered in order.
const readline = require("readline");
const { format } = require("@cdktf/hcl-tools");
const { parse } = require("@cdktf/hcl2json");

const rl = readline.createInterface({ input: process.stdin, terminal: false });
let chain = Promise.resolve();
rl.on("line", (line) => {
  chain = chain.then(async () => {
    let reply;
    try {
      const req = JSON.parse(line);
      if (req.op === "fmt") {
        reply = { ok: true, out: await format(req.text) };
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
