// @gd-com/utils 4.1.5 side of benches/compare/run.sh: times its public getVar/putVar on the
// Godot 3 files of the comparison and prints one JSON line per measurement (median ns).
// Usage: node gdcom.js DATA_DIR [FILTER]   (run.sh installs the package next to this script's copy)
'use strict'
const fs = require('fs')
const path = require('path')
const { getVar, putVar } = require('@gd-com/utils')

const names = ['w1_float32_1m', 'w2_bytes_16mib', 'w3_dicts_100k', 'w4_dict']
const [dir, filter] = process.argv.slice(2)
// Results land here so that the engine cannot drop the calls as unused.
let sink

// Median nanoseconds per call: calls batched to about `sampleMs`, median of `samples` samples.
function medianNs (f, sampleMs, samples) {
  const t0 = process.hrtime.bigint()
  f()
  const once = Math.max(Number(process.hrtime.bigint() - t0), 20)
  const batch = Math.max(1, Math.min(1e6, Math.floor(sampleMs * 1e6 / once)))
  const times = []
  for (let s = 0; s < samples; s++) {
    const t = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) f()
    times.push(Number(process.hrtime.bigint() - t) / batch)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]
}

function line (op, workload, ns, bytes, extra) {
  console.log(JSON.stringify(Object.assign({ tool: 'gdcom', op, dialect: 'godot3', workload, median_ns: ns, bytes }, extra)))
}

for (const name of names) {
  if (filter && !name.includes(filter)) continue
  const file = path.join(dir, `${name}.godot3.bin`)
  if (!fs.existsSync(file)) continue
  const bytes = fs.readFileSync(file)
  const big = bytes.length > (1 << 20)
  const [sampleMs, samples] = big ? [1, 7] : [5, 21]
  line('decode', name, medianNs(() => { sink = getVar(bytes) }, sampleMs, samples), bytes.length)
  const value = getVar(bytes).value
  let out
  try {
    out = putVar(value)
  } catch (e) {
    line('encode', name, null, bytes.length, { error: String(e.message || e) })
    continue
  }
  // putVar guesses types from JS values (a Vector2 becomes a Dictionary, 100.0 an int), so
  // say whether it wrote the engine's bytes.
  const same = Buffer.compare(out, bytes) === 0
  line('encode', name, medianNs(() => { sink = putVar(value) }, sampleMs, samples), bytes.length, { same_bytes: same, out_bytes: out.length })
}
void sink
