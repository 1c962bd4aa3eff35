package io.etcdworkers.workercli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest. */
public final class WorkerVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = WorkerVersion.class.getPackage().getImplementationVersion();
        return new String[] {version == null ? "development build" : version};
    }
}
