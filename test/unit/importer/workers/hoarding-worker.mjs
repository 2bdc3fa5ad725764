// A stand-in import worker whose memory grows piece by piece until its heap limit stops it,
// as an import of a hostile file could (test/unit/importer/worker-memory.test.ts).
const hoard = [];
for (;;) hoard.push(new Array(1024).fill(hoard.length));
