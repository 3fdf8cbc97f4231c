// Loaded into the server under test by `npm run bench -- --profile` (NODE_OPTIONS=--require): SIGUSR2 starts
// V8's sampling profiler, the next SIGUSR2 stops it and writes the profile to
// $BENCH_PROFILE_DIR/<pid>-<n>.cpuprofile (written whole, then renamed into place, so a reader never sees half
// a file). The server's own code is untouched; without the variable this does nothing.
const { Session } = require("node:inspector");
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 250 }); // µs
  let running = false;
  let taken = 0;
  process.on("SIGUSR2", () => {
    if (!running) {
      running = true;
      session.post("Profiler.start");
      return;
    }
    running = false;
    session.post("Profiler.stop", (error, result) => {
      if (error) return console.error("bench profiler:", error);
      const file = path.join(dir, `${process.pid}-${++taken}.cpuprofile`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
      fs.renameSync(`${file}.tmp`, file);
    });
  });
}
