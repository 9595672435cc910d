// A listener on 127.0.0.1 that sends a response's headers at once and then its body one byte every
// 200 ms (for test/low-findings-file-url.test.ts, whose loopback case runs when this is up):
//   node test/low-findings-trickle-server.mjs 18741
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 18741);
const server = createServer((req, res) => {
  if (req.url === '/ping') return res.end('pong');
  res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' });
  res.write('%PDF-1.7\n');
  const timer = setInterval(() => res.write(' '), 200);
  res.on('close', () => clearInterval(timer));
});
server.listen(port, '127.0.0.1', () => console.log(`trickling on http://127.0.0.1:${port}`));
