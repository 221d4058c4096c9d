// A load generator in its own process: `concurrency` keep-alive loops against one URL for
// `seconds`, then one JSON line with the request count, errors and latency percentiles.
import http from 'node:http';

const [url, concurrencyArg = '50', secondsArg = '5'] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const deadline = Date.now() + Number(secondsArg) * 1000;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const latencies = [];
let errors = 0;

function once() {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) errors++;
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
  });
}

async function loop() {
  while (Date.now() < deadline) await once();
}

await Promise.all(Array.from({ length: concurrency }, loop));
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(`${JSON.stringify({ requests: latencies.length, errors, p50: at(0.5), p99: at(0.99) })}\n`);
agent.destroy();
