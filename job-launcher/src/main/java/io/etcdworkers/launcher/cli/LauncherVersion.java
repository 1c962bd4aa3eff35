package io.etcdworkers.launcher.cli;

import io.etcdworkers.contract.BuildVersion;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the build's version, the same as the workers'. */
final class LauncherVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"job-launcher " + BuildVersion.current()};
    }
}
