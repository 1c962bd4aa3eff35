package io.etcdworkers.launcher.job;

import java.util.Set;
import java.util.regex.Pattern;

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
 * @param encryptionConfigSecret the Secret holding the API server's EncryptionConfiguration, mounted at
 *                      {@link #ENCRYPTION_CONFIG_MOUNT_PATH} and given to the worker as {@code --encryption-config}
 *                      (files only); null: values encrypted at rest are written as stored
 * @param encryptionConfigKey the Secret's key holding it; null: {@link #DEFAULT_ENCRYPTION_CONFIG_KEY}
 */
public record ExtractFlags(
        String outputClaim,
        String output,
        String prefix,
        String outputFormat,
        Long toRevision,
        String toTime,
        boolean toLastGood,
        boolean force,
        String encryptionConfigSecret,
        String encryptionConfigKey)
        implements JobWork {

    /** Where the output claim is mounted. */
    public static final String OUTPUT_MOUNT_PATH = "/var/etcd-extract";

    public static final String DEFAULT_OUTPUT = OUTPUT_MOUNT_PATH + "/extract";
    /** Where the EncryptionConfiguration's Secret is mounted (read-only, mode 0440). */
    public static final String ENCRYPTION_CONFIG_MOUNT_PATH = "/var/etcd-encryption-config";
    /**
     * The Secret's key by default: the one Gardener's {@code kube-apiserver-etcd-encryption-configuration-*}
     * Secrets use, and the file name the worker sees whatever the key.
     */
    public static final String DEFAULT_ENCRYPTION_CONFIG_KEY = "encryption-configuration.yaml";
    /** The file the worker reads. */
    public static final String ENCRYPTION_CONFIG_FILE =
            ENCRYPTION_CONFIG_MOUNT_PATH + "/" + DEFAULT_ENCRYPTION_CONFIG_KEY;

    private static final Set<String> FORMATS = Set.of("files", "etcd");
    /** What Kubernetes allows as a Secret's data key. */
    private static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]{1,253}");

    public ExtractFlags {
        RequestChecks.dnsSubdomain(RequestChecks.required(outputClaim, "output claim"), "output claim");
        output = output == null || output.isBlank() ? DEFAULT_OUTPUT : RequestChecks.absolutePath(output, "output");
        if (!output.startsWith(OUTPUT_MOUNT_PATH + "/")) {
            throw new IllegalArgumentException(
                    "output must be under " + OUTPUT_MOUNT_PATH + "/ (the output claim): " + output);
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
        encryptionConfigSecret = RequestChecks.blankToNull(encryptionConfigSecret);
        encryptionConfigKey = RequestChecks.blankToNull(encryptionConfigKey);
        if (encryptionConfigSecret == null) {
            if (encryptionConfigKey != null) {
                throw new IllegalArgumentException(
                        "encryption-config-key names a key of encryption-config-secret: " + "give the Secret too");
            }
        } else {
            RequestChecks.dnsSubdomain(encryptionConfigSecret, "encryption config secret");
            encryptionConfigKey = encryptionConfigKey == null ? DEFAULT_ENCRYPTION_CONFIG_KEY : encryptionConfigKey;
            if (!SECRET_KEY.matcher(encryptionConfigKey).matches()
                    || encryptionConfigKey.equals(".")
                    || encryptionConfigKey.equals("..")) {
                throw new IllegalArgumentException(
                        "encryption config key is not a Secret data key: " + encryptionConfigKey);
            }
            if ("etcd".equals(outputFormat)) {
                throw new IllegalArgumentException("the encryption config decrypts values into files; a data dir "
                        + "(output format etcd) keeps them as stored: drop one of the two");
            }
        }
    }

    @Override
    public WorkerKind kind() {
        return WorkerKind.EXTRACT;
    }

    /** An extract of the keys under {@code prefix} into {@code outputClaim}; every other flag left out until set. */
    public static Builder builder(String outputClaim, String prefix) {
        return new Builder(outputClaim, prefix);
    }

    /** Builds {@link ExtractFlags}; null leaves a flag out. */
    public static final class Builder {
        private final String outputClaim;
        private final String prefix;
        private String output;
        private String outputFormat;
        private Long toRevision;
        private String toTime;
        private boolean toLastGood;
        private boolean force;
        private String encryptionConfigSecret;
        private String encryptionConfigKey;

        private Builder(String outputClaim, String prefix) {
            this.outputClaim = outputClaim;
            this.prefix = prefix;
        }

        public Builder output(String value) {
            this.output = value;
            return this;
        }

        public Builder outputFormat(String value) {
            this.outputFormat = value;
            return this;
        }

        public Builder toRevision(Long value) {
            this.toRevision = value;
            return this;
        }

        public Builder toTime(String value) {
            this.toTime = value;
            return this;
        }

        public Builder toLastGood(boolean value) {
            this.toLastGood = value;
            return this;
        }

        public Builder force(boolean value) {
            this.force = value;
            return this;
        }

        /** The Secret holding the EncryptionConfiguration and its key (null: the default key). */
        public Builder encryptionConfig(String secret, String key) {
            this.encryptionConfigSecret = secret;
            this.encryptionConfigKey = key;
            return this;
        }

        public ExtractFlags build() {
            return new ExtractFlags(
                    outputClaim,
                    output,
                    prefix,
                    outputFormat,
                    toRevision,
                    toTime,
                    toLastGood,
                    force,
                    encryptionConfigSecret,
                    encryptionConfigKey);
        }
    }
}
