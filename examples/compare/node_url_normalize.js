// The yardstick of `iriscan --each-line --normalize [--unique] FILE` in
// examples/compare.rs: Node's WHATWG `URL` (the ada parser since Node 18)
// over the same lines. Each line of FILE is parsed with `new URL(line)` and
// its `href` printed (the serialization of a URL is normalized: case,
// default port, dot segments, percent-encoding); a line that does not parse
// prints an empty line, as iriscan does. With --unique, each href is
// printed once, remembered in a Set.
//
// Usage: node node_url_normalize.js [--unique] FILE
'use strict';
const fs = require('fs');

const args = process.argv.slice(2);
const unique = args[0] === '--unique';
const file = unique ? args[1] : args[0];
if (file === undefined) {
  process.stderr.write('usage: node node_url_normalize.js [--unique] FILE\n');
  process.exit(2);
}

const text = fs.readFileSync(file, 'utf8');
const lines = text.split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const seen = unique ? new Set() : null;
let out = [];
let outLen = 0;
function flush() {
  process.stdout.write(out.join(''));
  out = [];
  outLen = 0;
}
for (let line of lines) {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  let href;
  try {
    href = new URL(line).href;
  } catch (e) {
    // Not a URL: an empty line, every time (as iriscan reports each
    // invalid line).
    href = '';
  }
  if (seen !== null && href !== '') {
    if (seen.has(href)) continue;
    seen.add(href);
  }
  out.push(href, '\n');
  outLen += href.length + 1;
  if (outLen >= 1 << 16) flush();
}
flush();
