package io.etcdworkers.launcher.job;

import java.util.Objects;

/**
 * Where the backups are: the workers' store flags plus what the pod needs to reach them.
 *
 * @param provider         {@code --storage-provider}
 * @param container        {@code --store-container}: the bucket, or for {@code Local} the directory
 *                         under the bucket volume
 * @param prefix           {@code --store-prefix}, may be empty
 * @param endpointOverride {@code --store-endpoint-override}, or null
 * @param secretName       the Secret with the credentials, given to the pod as etcd-druid gives it
 *                         ({@link StoreCredentials}); required for every provider but Local
 * @param localClaimName   for Local: the PersistentVolumeClaim that holds the bucket directory
 */
public record StoreRef(
        StorageProvider provider,
        String container,
        String prefix,
        String endpointOverride,
        String secretName,
        String localClaimName) {

    public StoreRef {
        Objects.requireNonNull(provider, "storage provider");
        container = RequestChecks.required(container, "store container");
        prefix = prefix == null ? "" : prefix;
        endpointOverride = RequestChecks.blankToNull(endpointOverride);
        secretName = RequestChecks.blankToNull(secretName);
        localClaimName = RequestChecks.blankToNull(localClaimName);
        if (secretName != null) {
            RequestChecks.dnsSubdomain(secretName, "store secret");
        }
        switch (provider) {
            case S3, ABS, GCS, Swift, OSS, ECS, OCS -> {
                if (secretName == null) {
                    throw new IllegalArgumentException(
                            "the " + provider + " provider needs a credentials Secret " + "(--store-secret)");
                }
                if (localClaimName != null) {
                    throw new IllegalArgumentException("a bucket claim is only for the Local provider");
                }
            }
            case Local -> {
                if (localClaimName == null) {
                    throw new IllegalArgumentException(
                            "the Local provider needs the PersistentVolumeClaim that holds the bucket (--store-claim)");
                }
                RequestChecks.dnsSubdomain(localClaimName, "store claim");
                if (container.startsWith("/") || container.contains("..")) {
                    throw new IllegalArgumentException(
                            "the Local container is a directory relative to the bucket volume: " + container);
                }
            }
        }
    }
}
