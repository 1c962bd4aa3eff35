package io.etcdworkers.launcher.cli;

import io.etcdworkers.testsupport.StartScriptChecks;

/** bin/job-launcher, started as a user would, on this module's jar: {@link StartScriptChecks}. */
class StartScriptIT extends StartScriptChecks {
    StartScriptIT() {
        super("job-launcher", false);
    }
}
