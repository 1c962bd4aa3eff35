package io.etcdworkers.launcher.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses a cluster older than the Jobs the launcher renders need, before any Job or CronJob is
 * made on it: {@code podFailurePolicy} is beta and on by default from Kubernetes 1.26 (GA in 1.31),
 * {@code podReplacementPolicy} from 1.29 (GA in 1.34). An API server with a feature off drops the
 * field without a word, and the Job would then retry a corrupt backup up to its backoff limit and
 * start a second pod beside a terminating one.
 */
public final class KubernetesVersionCheck {
    /** The oldest Kubernetes minor version on which every field the launcher renders is on by default. */
    public static final int MINIMUM_MINOR = 29;

    public static final String MINIMUM = "1." + MINIMUM_MINOR;

    /** {@code v1.29.3}, {@code v1.30.1-gke.1}, {@code v1.28.9+k3s1}. */
    private static final Pattern GIT_VERSION = Pattern.compile("v?(\\d+)\\.(\\d+).*");
    /** Managed services report a minor of {@code 29+}. */
    private static final Pattern LEADING_NUMBER = Pattern.compile("(\\d+).*");

    private KubernetesVersionCheck() {}

    /**
     * Reads the server's version ({@code /version}) and throws {@link LauncherError#CLUSTER_TOO_OLD}
     * naming the version found and the one needed when it is older than {@link #MINIMUM}.
     */
    public static void requireSupported(KubernetesClient client) {
        VersionInfo info = KubeCall.run(client::getKubernetesVersion, "read the Kubernetes version (/version)");
        int[] found = majorMinor(info)
                .orElseThrow(() -> new LauncherException(
                        LauncherError.KUBERNETES_API,
                        "could not read the Kubernetes version from /version: major=" + info.getMajor() + " minor="
                                + info.getMinor() + " gitVersion=" + info.getGitVersion()));
        if (found[0] < 1 || (found[0] == 1 && found[1] < MINIMUM_MINOR)) {
            throw new LauncherException(
                    LauncherError.CLUSTER_TOO_OLD,
                    "the Kubernetes API server is version "
                            + found[0] + "." + found[1]
                            + (info.getGitVersion() == null ? "" : " (" + info.getGitVersion() + ")")
                            + ", the Jobs need " + MINIMUM
                            + " or later (podFailurePolicy and podReplacementPolicy on by"
                            + " default); no Job was created");
        }
    }

    /** The major and minor version, from the major and minor fields, else from the git version. */
    static Optional<int[]> majorMinor(VersionInfo info) {
        Matcher major = LEADING_NUMBER.matcher(String.valueOf(info.getMajor()));
        Matcher minor = LEADING_NUMBER.matcher(String.valueOf(info.getMinor()));
        if (major.matches() && minor.matches()) {
            return Optional.of(new int[] {Integer.parseInt(major.group(1)), Integer.parseInt(minor.group(1))});
        }
        Matcher git = GIT_VERSION.matcher(String.valueOf(info.getGitVersion()));
        if (git.matches()) {
            return Optional.of(new int[] {Integer.parseInt(git.group(1)), Integer.parseInt(git.group(2))});
        }
        return Optional.empty();
    }
}
