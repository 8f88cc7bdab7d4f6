// The ECMA-262 side of the schema/runtime agreement test (agreement_test.go).
// Reads {"schemas": {tool: schema}, "cases": [{"tool", "args"}]} on stdin,
// compiles every schema with ajv (JSON Schema 2020-12; patterns are
// ECMA-262 RegExps with the u flag, ajv's default) and ajv-formats, and
// writes one verdict per case: true, false, or the reason a schema did not
// compile. Args that are not JSON are refused, as a client would.
"use strict";
const Ajv2020 = require("ajv/dist/2020");
const addFormats = require("ajv-formats");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { schemas, cases } = JSON.parse(input);
  const ajv = new Ajv2020({ allowUnionTypes: true });
  addFormats(ajv);
  const compiled = {};
  for (const [tool, schema] of Object.entries(schemas)) {
    try {
      compiled[tool] = ajv.compile(schema);
    } catch (e) {
      compiled[tool] = String(e.message || e);
    }
  }
  const verdicts = cases.map(({ tool, args }) => {
    const validate = compiled[tool];
    if (typeof validate === "string") return "schema does not compile: " + validate;
    let value;
    try {
      value = JSON.parse(args);
    } catch {
      return false;
    }
    return validate(value);
  });
  process.stdout.write(JSON.stringify(verdicts));
});
