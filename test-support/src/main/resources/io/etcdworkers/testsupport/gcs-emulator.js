// Starts the Cloud Storage emulator of firebase-tools (installed by .ci/gcs-emulator.sh) without
// its CLI, which refuses Java < 21 and downloads a rules runtime jar that cannot be fetched here.
// The GCS JSON API routes (apis/gcloud.js) never consult security rules, so the rules runtime and
// manager are replaced by stand-ins that do nothing. Depends on firebase-tools' internal layout:
// pinned to the version .ci/gcs-emulator.sh installs.
//
//   node gcs-emulator.js <firebase-tools package dir> <port>
//
// Listens on 127.0.0.1:<port> only; prints "ready 127.0.0.1:<port>" once it accepts requests.
// Exits on SIGTERM or SIGINT. Give each instance its own TMPDIR: blobs go to $TMPDIR/firebase/storage.
"use strict";

const path = require("path");

const [packageDir, portArg] = process.argv.slice(2);
const port = Number(portArg);
if (!packageDir || !Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error("usage: node gcs-emulator.js <firebase-tools package dir> <port>");
  process.exit(2);
}

const emulatorDir = path.join(packageDir, "lib", "emulator");
const { StorageEmulator } = require(path.join(emulatorDir, "storage"));
const { StorageRulesRuntime } = require(path.join(emulatorDir, "storage", "rules", "runtime"));
const { EmulatorRegistry } = require(path.join(emulatorDir, "registry"));

StorageRulesRuntime.prototype.start = async function () {};
StorageRulesRuntime.prototype.stop = async function () {};
StorageEmulator.prototype.createRulesManager = function () {
  return {
    start: async () => ({ all: [] }),
    stop: async () => {},
    getRuleset: () => undefined,
  };
};

const host = "127.0.0.1";
const emulator = new StorageEmulator({ projectId: "etcd-workers-test", host, port, auto_download: false });

// Exit at once: everything it holds is in memory or under $TMPDIR, which its owner deletes.
// (EmulatorRegistry.stopAll() would first wait for idle keep-alive connections to time out.)
process.on("SIGTERM", () => process.exit(0));
process.on("SIGINT", () => process.exit(130));

EmulatorRegistry.start(emulator).then(
  () => console.log(`ready ${host}:${port}`),
  (err) => {
    console.error(`the storage emulator did not start: ${err && err.stack ? err.stack : err}`);
    process.exit(1);
  });
