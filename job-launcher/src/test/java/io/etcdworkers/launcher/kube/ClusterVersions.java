package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** What the mock API server answers on {@code /version}: its default is 0.0, which no cluster reports. */
public final class ClusterVersions {
    private ClusterVersions() {}

    /** The server reports Kubernetes {@code major.minor} as a release would ({@code v1.29.0}). */
    public static void report(KubernetesMockServer server, String major, String minor) {
        server.setVersionInfo(new VersionInfo.Builder()
                .withMajor(major)
                .withMinor(minor)
                .withGitVersion("v" + major + "." + minor.replaceAll("\\D", "") + ".0")
                .build());
    }

    /** The server reports the oldest version the launcher's Jobs run on. */
    public static void reportSupported(KubernetesMockServer server) {
        report(server, "1", String.valueOf(KubernetesVersionCheck.MINIMUM_MINOR));
    }
}
