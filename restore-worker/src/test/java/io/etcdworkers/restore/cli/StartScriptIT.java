package io.etcdworkers.restore.cli;

import io.etcdworkers.testsupport.StartScriptChecks;

/** bin/restore-worker, started as a user would, on this module's jar: {@link StartScriptChecks}. */
class StartScriptIT extends StartScriptChecks {
    StartScriptIT() {
        super("restore-worker", true);
    }
}
