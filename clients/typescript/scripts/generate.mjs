// `npm run generate`: write src/openapi.ts from the server's OpenAPI document: the live one
// at $TRIFORM_URL when set, else the one `python -m api.openapi` prints from the repository
// (its .venv), which is what every server of this tree answers at /openapi.json.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { render } from "./openapi.mjs";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const url = process.env.TRIFORM_URL;
let doc;
if (url) {
  const answer = await fetch(new URL("/openapi.json", url));
  if (!answer.ok) throw new Error(`GET ${url}/openapi.json answered ${answer.status}`);
  doc = await answer.json();
} else {
  const python = process.env.TRIFORM_PYTHON ?? here("../../../.venv/bin/python");
  doc = JSON.parse(execFileSync(python, ["-m", "api.openapi"], { cwd: here("../../.."),
                                                               encoding: "utf8" }));
}
writeFileSync(here("../src/openapi.ts"), await render(doc));
console.log("wrote src/openapi.ts");
