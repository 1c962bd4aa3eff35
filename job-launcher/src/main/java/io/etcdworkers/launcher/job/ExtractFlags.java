package io.etcdworkers.launcher.job;

import java.util.Set;

/**
 * What only an extract takes: the claim it writes into and the restore worker's extract flags
 * (null = left out).
 *
 * @param outputClaim   the PersistentVolumeClaim the extract is written into, mounted at {@link #OUTPUT_MOUNT_PATH}
 * @param output        {@code --output}, under {@link #OUTPUT_MOUNT_PATH}
 * @param prefix        {@code --prefix}: the keys to extract
 * @param outputFormat  {@code --output-format}: {@code files} or {@code etcd}
 * @param toRevision    {@code --to-revision}
 * @param toTime        {@code --to-time}, an RFC 3339 time with an offset (rendered in UTC)
 * @param toLastGood    {@code --to-last-good}
 * @param force         {@code --force}: replace a non-empty output dir
 */
public record ExtractFlags(
        String outputClaim,
        String output,
        String prefix,
        String outputFormat,
        Long toRevision,
        String toTime,
        boolean toLastGood,
        boolean force) {

    /** Where the output claim is mounted. */
    public static final String OUTPUT_MOUNT_PATH = "/var/etcd-extract";
    public static final String DEFAULT_OUTPUT = OUTPUT_MOUNT_PATH + "/extract";
    private static final Set<String> FORMATS = Set.of("files", "etcd");

    public ExtractFlags {
        RequestChecks.dnsSubdomain(RequestChecks.required(outputClaim, "output claim"), "output claim");
        output = output == null || output.isBlank() ? DEFAULT_OUTPUT : RequestChecks.absolutePath(output, "output");
        if (!output.startsWith(OUTPUT_MOUNT_PATH + "/")) {
            throw new IllegalArgumentException("output must be under " + OUTPUT_MOUNT_PATH + "/ (the output claim): "
                    + output);
        }
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("an extract needs a key prefix, e.g. /registry/secrets/team-a/");
        }
        outputFormat = RequestChecks.blankToNull(outputFormat);
        if (outputFormat != null && !FORMATS.contains(outputFormat)) {
            throw new IllegalArgumentException("output format must be files or etcd: " + outputFormat);
        }
        RequestChecks.positive(toRevision, "to-revision");
        toTime = RestoreFlags.utcTime(toTime);
        if (toRevision != null && toTime != null) {
            throw new IllegalArgumentException("give to-revision or to-time, not both");
        }
    }
}
