package io.etcdworkers.store.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;

/**
 * Everything {@link S3ObjectStore} needs, validated. Build it with {@link S3StoreConfigFactory}
 * from the etcd-backup-restore conventions, or directly in tests.
 *
 * <p>The store closes {@code credentials} when it is closeable (an STS web identity provider
 * owns an STS client), so give each store its own config.
 *
 * @param provider etcdbrctl's name of the provider ({@code S3}, or an S3-compatible one: {@code OSS},
 *     {@code ECS}, {@code OCS}), for messages
 * @param bucket the bucket (the etcd-backup-restore "container")
 * @param region signing region; S3-compatible servers usually accept any
 * @param endpointOverride the S3 endpoint when not AWS's (S3Proxy, MinIO, ...)
 * @param forcePathStyle {@code http://host/bucket/key} instead of {@code http://bucket.host/key}
 * @param credentials where the access key comes from
 * @param sseCustomerKey the SSE-C key sent with every object request, if any
 * @param tls trust settings for HTTPS endpoints
 * @param retry how often and how patiently the SDK retries a failed call
 * @param partSize bytes per multipart part; also the largest object written with one PUT
 * @param requestChecksums when the SDK adds CRC checksums to uploads
 * @param responseChecksums when the SDK validates checksums of downloads
 * @param chunkedEncoding whether the SDK may send a signed upload body as {@code aws-chunked}
 *     (over plain HTTP); off, it signs the body's SHA-256 computed beforehand
 */
public record S3StoreConfig(
        String provider,
        String bucket,
        Region region,
        Optional<URI> endpointOverride,
        boolean forcePathStyle,
        AwsCredentialsProvider credentials,
        Optional<SseCustomerKey> sseCustomerKey,
        Tls tls,
        Retry retry,
        long partSize,
        RequestChecksumCalculation requestChecksums,
        ResponseChecksumValidation responseChecksums,
        boolean chunkedEncoding) {

    /** S3's smallest allowed part (all parts but the last). */
    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;
    /** S3's largest allowed part. */
    public static final long MAX_PART_SIZE = 5L * 1024 * 1024 * 1024;
    /** 16 MiB parts: 10,000 parts then cover 160 GiB, far above etcd's 8 GiB quota. */
    public static final long DEFAULT_PART_SIZE = 16L * 1024 * 1024;

    /** etcdbrctl's name of AWS S3 and the S3-compatible stores it reads with the same keys. */
    public static final String S3 = "S3";

    public S3StoreConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(endpointOverride, "endpointOverride");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(sseCustomerKey, "sseCustomerKey");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(requestChecksums, "requestChecksums");
        Objects.requireNonNull(responseChecksums, "responseChecksums");
        if (bucket.isBlank()) {
            throw new IllegalArgumentException("empty bucket name");
        }
        if (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
            throw new IllegalArgumentException(
                    "part size " + partSize + " outside S3's limits [" + MIN_PART_SIZE + ", " + MAX_PART_SIZE + "]");
        }
        endpointOverride.ifPresent(uri -> {
            if (!uri.isAbsolute() || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "endpoint must be an absolute URL such as" + " https://host:port, got " + uri);
            }
        });
    }

    /** A config with the defaults for everything but where and who. */
    public static S3StoreConfig of(
            String bucket,
            Region region,
            Optional<URI> endpointOverride,
            boolean forcePathStyle,
            AwsCredentialsProvider credentials) {
        return new S3StoreConfig(
                S3,
                bucket,
                region,
                endpointOverride,
                forcePathStyle,
                credentials,
                Optional.empty(),
                Tls.DEFAULT,
                Retry.DEFAULT,
                DEFAULT_PART_SIZE,
                RequestChecksumCalculation.WHEN_SUPPORTED,
                ResponseChecksumValidation.WHEN_SUPPORTED,
                true);
    }

    /** The same config with another part size. */
    public S3StoreConfig withPartSize(long newPartSize) {
        return new S3StoreConfig(
                provider,
                bucket,
                region,
                endpointOverride,
                forcePathStyle,
                credentials,
                sseCustomerKey,
                tls,
                retry,
                newPartSize,
                requestChecksums,
                responseChecksums,
                chunkedEncoding);
    }

    /** The same config with other retry settings. */
    public S3StoreConfig withRetry(Retry newRetry) {
        return new S3StoreConfig(
                provider,
                bucket,
                region,
                endpointOverride,
                forcePathStyle,
                credentials,
                sseCustomerKey,
                tls,
                newRetry,
                partSize,
                requestChecksums,
                responseChecksums,
                chunkedEncoding);
    }

    /** Leaves out the credentials provider and the SSE-C key: they may print secrets. */
    @Override
    public String toString() {
        return "S3StoreConfig[provider=" + provider + ", bucket=" + bucket + ", region=" + region
                + ", endpointOverride=" + endpointOverride.map(URI::toString).orElse("-")
                + ", forcePathStyle=" + forcePathStyle
                + ", credentials=" + credentials.getClass().getSimpleName()
                + ", sseCustomerKey=" + (sseCustomerKey.isPresent() ? "***" : "-")
                + ", tls=" + tls + ", retry=" + retry + ", partSize=" + partSize
                + ", requestChecksums=" + requestChecksums
                + ", responseChecksums=" + responseChecksums + ", chunkedEncoding=" + chunkedEncoding + "]";
    }

    /**
     * Trust for HTTPS endpoints.
     *
     * @param insecureSkipVerify accept any server certificate (private test deployments only)
     * @param trustedCaCertPem PEM certificates that replace the JVM's trusted roots
     */
    public record Tls(boolean insecureSkipVerify, Optional<String> trustedCaCertPem) {
        public static final Tls DEFAULT = new Tls(false, Optional.empty());

        public Tls {
            Objects.requireNonNull(trustedCaCertPem, "trustedCaCertPem");
        }

        @Override
        public String toString() {
            return "Tls[insecureSkipVerify=" + insecureSkipVerify + ", trustedCaCert="
                    + (trustedCaCertPem.isPresent() ? "given" : "-") + "]";
        }
    }

    /**
     * The SDK's standard retry strategy, bounded: at most {@code maxAttempts} tries per call
     * (the first included), with exponential backoff and full jitter between them, each try
     * bounded by {@code attemptTimeout}.
     *
     * @param maxAttempts tries per call, at least 1
     * @param baseDelay first backoff; doubled per attempt
     * @param maxBackoff cap of one backoff
     * @param attemptTimeout the longest one try may take: for a listing or an upload the whole
     *     request, for a download until the body starts; a body read that stalls this long
     *     (capped at the HTTP client's socket timeout) breaks the download
     */
    public record Retry(int maxAttempts, Duration baseDelay, Duration maxBackoff, Duration attemptTimeout) {
        /** The longest one try may take unless configured: long enough for a 16 MiB part on a slow link. */
        public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofMinutes(2);
        /** 5 tries over roughly half a minute ride out a throttling burst or a restarted gateway. */
        public static final Retry DEFAULT = new Retry(5, Duration.ofMillis(500), Duration.ofSeconds(20));

        public Retry {
            Objects.requireNonNull(baseDelay, "baseDelay");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            Objects.requireNonNull(attemptTimeout, "attemptTimeout");
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
            }
            if (baseDelay.isNegative() || maxBackoff.compareTo(baseDelay) < 0) {
                throw new IllegalArgumentException("need 0 <= baseDelay <= maxBackoff");
            }
            if (attemptTimeout.isNegative() || attemptTimeout.isZero()) {
                throw new IllegalArgumentException("attemptTimeout must be positive, got " + attemptTimeout);
            }
        }

        /** With the default attempt timeout. */
        public Retry(int maxAttempts, Duration baseDelay, Duration maxBackoff) {
            this(maxAttempts, baseDelay, maxBackoff, DEFAULT_ATTEMPT_TIMEOUT);
        }

        /** The same settings with another attempt timeout. */
        public Retry withAttemptTimeout(Duration timeout) {
            return new Retry(maxAttempts, baseDelay, maxBackoff, timeout);
        }

        /**
         * The bound of a whole call, retries included: every try at its longest plus every
         * backoff at its cap. Only a backstop; the attempt timeout is what normally ends a try.
         */
        public Duration callTimeout() {
            return attemptTimeout
                    .multipliedBy(maxAttempts)
                    .plus(maxBackoff.multipliedBy(maxAttempts - 1L))
                    .plusSeconds(10);
        }
    }
}
