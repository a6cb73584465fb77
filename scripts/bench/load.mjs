// autocannon, driven through its programmatic API against loopback only.
import autocannon from 'autocannon';
import { HOST } from './processes.mjs';

export const CONNECTIONS = 50;

/**
 * Every response time of a run, in ms with sub-ms precision: autocannon's own histogram keeps
 * whole milliseconds, too coarse for a local server that answers in 0.5–3 ms.
 */
class LatencyRecorder {
  values = new Float64Array(1 << 16);
  count = 0;

  add(ms) {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  /** Percentiles by nearest rank. */
  percentiles(...ranks) {
    const sorted = this.values.subarray(0, this.count).sort();
    return ranks.map((rank) => (this.count === 0 ? NaN : sorted[Math.max(0, Math.ceil((rank / 100) * this.count) - 1)]));
  }
}

/**
 * Drives one scenario for `seconds` and summarises it. `unexpected` counts answers with another
 * status than the scenario expects, plus socket errors and timeouts: a figure built on wrong
 * answers (a 429, a 500) must be visible as such.
 */
export function runLoad(port, scenario, seconds, { setupRequest } = {}) {
  const latencies = new LatencyRecorder();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://${HOST}:${port}`,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            method: scenario.method,
            path: scenario.path,
            headers: scenario.headers,
            ...(scenario.body === undefined ? {} : { body: scenario.body }),
            ...(setupRequest ? { setupRequest } : {}),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(summarise(result, scenario.expect, latencies))),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.add(responseTime));
  });
}

function summarise(result, expectedStatus, latencies) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]));
  const completed = result.requests.total;
  const expected = statuses[expectedStatus] ?? 0;
  const [p50, p99] = latencies.percentiles(50, 99);
  return {
    // Completed requests over the measured time: exact, unlike the mean of 1-second samples.
    rps: completed / result.duration,
    p50,
    p99,
    sent: result.requests.sent,
    completed,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected: completed - expected + result.errors + result.timeouts,
  };
}

/**
 * Requests one at a time on one keep-alive connection, `gapMs` apart, as a CI suite sends its
 * writes: the answer time of each, with nothing else in flight. Summarised like runLoad.
 */
export async function runSequential(port, scenario, count, gapMs) {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = new LatencyRecorder();
  const statuses = {};
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    const status = await new Promise((resolve, reject) => {
      const req = request({ host: HOST, port, method: scenario.method, path: scenario.path, headers: scenario.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end(scenario.body);
    });
    latencies.add(performance.now() - sent);
    statuses[status] = (statuses[status] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  agent.destroy();
  const [p50, p99] = latencies.percentiles(50, 99);
  const expected = statuses[scenario.expect] ?? 0;
  return {
    rps: count / ((performance.now() - started) / 1000),
    p50,
    p99,
    sent: count,
    completed: count,
    statuses,
    errors: 0,
    timeouts: 0,
    unexpected: count - expected,
  };
}
