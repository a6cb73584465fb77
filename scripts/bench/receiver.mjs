// A webhook receiver for the bench's events comparison: a process of its own (so it never takes
// the load generator's time), answering every delivery 204 and counting them.
import { createServer } from 'node:http';

let delivered = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    delivered++;
    response.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
process.on('message', (message) => {
  if (message?.type === 'count') process.send({ type: 'count', delivered });
});
