// Preload for `node --require ./bench/max-rss.cjs SCRIPT ...`: on exit (normal end, process.exit
// with any code, or an uncaught exception) writes the process's peak resident set size in bytes
// (getrusage ru_maxrss) to the file named by BENCH_MAX_RSS_FILE. A process killed by a signal
// writes nothing. The variable is removed from the environment so child processes cannot
// overwrite the file. CommonJS, so that preloading it does not start Node's ES module loader,
// which the bundle (CommonJS) does not use: the preload adds nothing measurable to what it measures.
'use strict';
const { writeFileSync } = require('node:fs');

const file = process.env.BENCH_MAX_RSS_FILE;
delete process.env.BENCH_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
