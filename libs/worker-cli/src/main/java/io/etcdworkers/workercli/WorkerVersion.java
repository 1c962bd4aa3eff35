package io.etcdworkers.workercli;

import io.etcdworkers.contract.BuildVersion;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the build's version, the same as the launcher's and the result JSON's. */
public final class WorkerVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {BuildVersion.current()};
    }
}
