package io.etcdworkers.store.s3;

import java.util.Objects;
import java.util.Optional;

/**
 * What etcdbrctl takes from the Secret of an S3-compatible provider other than S3 itself (its
 * {@code s3AuthOptions}, and for OSS its {@code authOptions}), as read by
 * {@link S3CompatibleCredentialsReader}.
 *
 * @param provider etcdbrctl's name: {@code OSS}, {@code ECS} or {@code OCS}
 * @param source the file, directory or variables read, for messages
 * @param endpoint the endpoint as written (OSS {@code storageEndpoint}, ECS {@code ECS_ENDPOINT},
 *     OCS {@code endpoint}); not yet a URL, each provider has its own rules
 * @param region OCS {@code region}; none for OSS and ECS
 * @param accessKeyId OSS and OCS {@code accessKeyID}, ECS {@code ECS_ACCESS_KEY_ID}
 * @param secretAccessKey OSS {@code accessKeySecret}, OCS {@code secretAccessKey}, ECS
 *     {@code ECS_SECRET_ACCESS_KEY} (secret; never printed)
 * @param disableSsl OCS {@code disableSSL}, ECS {@code ECS_DISABLE_SSL}: plain HTTP whatever the scheme
 * @param insecureSkipVerify OCS {@code insecureSkipVerify}, ECS {@code ECS_INSECURE_SKIP_VERIFY}
 */
public record S3CompatibleCredentials(
        String provider,
        String source,
        String endpoint,
        Optional<String> region,
        String accessKeyId,
        String secretAccessKey,
        boolean disableSsl,
        boolean insecureSkipVerify) {

    public S3CompatibleCredentials {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    }

    /** Without the secret key. */
    @Override
    public String toString() {
        return "S3CompatibleCredentials[provider=" + provider + ", source=" + source + ", endpoint=" + endpoint
                + ", region=" + region.orElse("-") + ", accessKeyID, secretAccessKey=***, disableSSL=" + disableSsl
                + ", insecureSkipVerify=" + insecureSkipVerify + "]";
    }
}
