package io.etcdworkers.etcd;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version of the etcd binary the worker drives, as printed by {@code etcd --version}.
 *
 * <p>Only major, minor and patch matter: they decide which tool restores a snapshot and which
 * server flags exist. A pre-release suffix ({@code 3.6.0-rc.1}) is ignored.
 */
public record EtcdVersion(int major, int minor, int patch) implements Comparable<EtcdVersion> {

    /** The first release with {@code --unsafe-no-fsync} and {@code etcdutl}. */
    public static final EtcdVersion V3_5 = new EtcdVersion(3, 5, 0);
    /** The first release whose {@code etcdctl} no longer restores snapshots. */
    public static final EtcdVersion V3_6 = new EtcdVersion(3, 6, 0);

    // Anchored to the line start: "Go Version: go1.19.8" must never be taken for etcd's own.
    private static final Pattern VERSION_LINE = Pattern.compile("(?m)^etcd Version:\\s*v?(\\d+)\\.(\\d+)\\.(\\d+)");

    public EtcdVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("negative version part: " + major + "." + minor + "." + patch);
        }
    }

    /**
     * Parses the output of {@code etcd --version} (first line {@code etcd Version: 3.4.23}).
     *
     * @throws WorkerException {@link ErrorCode#USAGE} when no version line is found: the binary
     *     named as etcd is something else
     */
    public static EtcdVersion parse(String versionOutput) {
        Matcher m = VERSION_LINE.matcher(versionOutput == null ? "" : versionOutput);
        if (!m.find()) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "cannot read the etcd version from `etcd --version` output: "
                            + LogTail.excerpt(versionOutput == null ? "" : versionOutput, 5));
        }
        return new EtcdVersion(
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    /** {@code --unsafe-no-fsync} exists from etcd 3.5 on; 3.4 rejects it as an unknown flag. */
    public boolean supportsUnsafeNoFsync() {
        return atLeast(V3_5);
    }

    /** Whether {@code etcdutl snapshot restore} exists (3.5+); 3.4 restores with etcdctl. */
    public boolean hasEtcdutl() {
        return atLeast(V3_5);
    }

    /** Whether {@code etcdctl snapshot restore} still exists (removed in 3.6). */
    public boolean etcdctlRestores() {
        return !atLeast(V3_6);
    }

    public boolean atLeast(EtcdVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(EtcdVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
