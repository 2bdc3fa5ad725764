// A small keep-alive HTTP client for the benchmark: latency of single requests and
// throughput with N concurrent connections, against Deskstore's loopback server.
import http from 'node:http';

export function client(base, connections = 10) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(base);
  const request = (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { ...(data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {}), ...headers },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', reject);
      if (data) req.write(data);
      req.end();
    });
  return {
    agent,
    request,
    async action(name, params, headers) {
      const res = await request('POST', `/api/3/action/${name}`, params, headers);
      const json = JSON.parse(res.text);
      if (!json.success) throw new Error(`${name} failed: ${res.status} ${res.text.slice(0, 300)}`);
      return json.result;
    },
    close() {
      agent.destroy();
    },
  };
}

/** The median of unsorted figures (the upper one of an even count): the A/B scripts' summary. */
export function median(xs) {
  return percentile([...xs].sort((a, b) => a - b), 50);
}

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times each params object once, sequentially; returns sorted latencies in ms. */
export async function timeEach(c, paramsList) {
  const times = [];
  for (const params of paramsList) {
    const started = performance.now();
    await c.action('datastore_search', params);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Requests per second with `connections` loops sending `params` for `seconds`. */
export async function throughput(c, params, connections, seconds) {
  let count = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await c.action('datastore_search', params);
        count++;
      }
    }),
  );
  return count / seconds;
}
