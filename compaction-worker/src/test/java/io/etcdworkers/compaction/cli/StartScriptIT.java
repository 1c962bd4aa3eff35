package io.etcdworkers.compaction.cli;

import io.etcdworkers.testsupport.StartScriptChecks;

/** bin/compaction-worker, started as a user would, on this module's jar: {@link StartScriptChecks}. */
class StartScriptIT extends StartScriptChecks {
    StartScriptIT() {
        super("compaction-worker", true);
    }
}
